import Glibc
import PollLoop
import Synchronization
import TouchGestures

/// The daemon's standard error, never waited for. A log line goes out at once when the
/// reader keeps up; otherwise it waits in a backlog that the daemon's loop writes out as
/// the reader takes it (polling for POLLOUT only while lines wait). A reader that stops
/// reading (a paused pager, a stalled journald) costs log lines once the backlog is full,
/// never a gesture; once it has taken half the backlog again, a warning says how many
/// lines were lost.
///
/// The descriptor stays blocking (its file description may be a terminal shared with the
/// shell), so a write happens only after poll said it can take one: a pipe that polls
/// writable has a free page, and a write of at most `PIPE_BUF` bytes then goes in whole;
/// a terminal or a Unix socket (journald) that polls writable has room for a line.
final class LogOutput: PollSource, Sendable {
    /// Bytes of log lines that may wait for a slow reader: as much again as a pipe holds
    /// by default, several hundred lines, so a burst (a reload, -vv) is delayed, not lost.
    static let backlogBytes = 64 * 1_024

    private struct State {
        var backlog: [UInt8] = []
        /// Lines lost since the backlog was last full; more are lost while it is over half full.
        var lost = 0
        /// The reader went away (EPIPE): lines go nowhere, as they would to a closed pipe.
        var gone = false
    }

    let descriptor: Int32
    /// Makes a warning log line of a text, as the logger would.
    private let warning: @Sendable (String) -> String
    private let state = Mutex(State())

    init(descriptor: Int32, warning: @escaping @Sendable (String) -> String) {
        self.descriptor = descriptor
        self.warning = warning
    }

    /// Queues `line` (escaped already) and writes what the reader takes now. Once the
    /// backlog is full, lines are lost until the reader has taken half of it; then a
    /// warning says how many were.
    func offer(_ line: String) {
        state.withLock { state in
            guard !state.gone else { return }
            let bytes = Self.bytes(line)
            guard state.lost == 0, state.backlog.count + bytes.count <= Self.backlogBytes else { return state.lost += 1 }
            state.backlog += bytes
            flush(&state)
        }
    }

    /// Lines waiting for the reader.
    var isEmpty: Bool { state.withLock { $0.backlog.isEmpty } }

    /// For the daemon's last words: waits at most `limit` for the backlog to go out.
    func drain(within limit: Duration) {
        let end = PollScheduler.now() + limit
        while !isEmpty {
            let left = end - PollScheduler.now()
            guard left > .zero else { return }
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            guard poll(&entry, 1, Int32(clamping: (left.wholeMicroseconds + 999) / 1_000)) >= 0 || errno == EINTR else { return }
            handleWritable(descriptor)
        }
    }

    // MARK: PollSource

    var pollDescriptors: [Int32] { [] }
    func handleReadable(_ fd: Int32) {}
    var writeDescriptors: [Int32] { isEmpty ? [] : [descriptor] }
    func handleWritable(_ fd: Int32) { state.withLock { flush(&$0) } }
    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}

    // MARK: Internals

    /// Writes whole lines, at most `PIPE_BUF` bytes a write, while the reader takes them.
    private func flush(_ state: inout State) {
        while !state.backlog.isEmpty && readyForWriting() {
            let window = state.backlog.prefix(Int(PIPE_BUF))
            let end = window.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? window.count
            let written = state.backlog.withUnsafeBytes { write(descriptor, $0.baseAddress, end) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                state.gone = true
                state.backlog.removeAll()
                return
            }
            state.backlog.removeFirst(written)
            if state.lost > 0 && state.backlog.count <= Self.backlogBytes / 2 {
                let count = state.lost
                state.backlog += Self.bytes(warning("\(count) log line\(count == 1 ? " was" : "s were") lost: standard error was not being read"))
                state.lost = 0
            }
        }
    }

    private func readyForWriting() -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&entry, 1, 0)
            if ready < 0 && errno == EINTR { continue }
            return ready == 1 && entry.revents & Int16(POLLOUT | POLLERR) != 0
        }
    }

    /// The line and its newline, cut to `PIPE_BUF` bytes at a character, ending in `...`.
    static func bytes(_ line: String) -> [UInt8] {
        let limit = Int(PIPE_BUF) - 1
        guard line.utf8.count > limit else { return Array(line.utf8) + [UInt8(ascii: "\n")] }
        var result: [UInt8] = []
        for character in line {
            guard result.count + character.utf8.count + 3 <= limit else { break }
            result += character.utf8
        }
        return result + Array("...\n".utf8)
    }
}
