import Glibc
import Synchronization
import TouchGestures

/// The daemon's standard error, never waited for. A log line goes out at once when the
/// reader keeps up; otherwise it waits in a backlog that the daemon's loop writes out as
/// the reader takes it (polling for POLLOUT only while lines wait). A reader that stops
/// reading (a paused pager, a stalled journald) costs log lines once the backlog is full,
/// never a gesture; once it has taken half the backlog again, a warning says how many
/// lines were lost.
///
/// Writes never wait, whoever else writes to the same pipe (commands inherit it):
/// - a pipe, FIFO or terminal is reopened through /proc/self/fd as a file description
///   of our own with O_NONBLOCK (setting it on the inherited one would change it for
///   the shell and every command too);
/// - a socket (journald) gets `send` with MSG_DONTWAIT;
/// - a regular file never waits.
/// Only if /proc cannot reopen it does a write go to the inherited descriptor, and then
/// only after poll says it can take one.
public final class LogOutput: PollSource, Sendable {
    /// Bytes of log lines that may wait for a slow reader: as much again as a pipe holds
    /// by default, several hundred lines, so a burst (a reload, -vv) is delayed, not lost.
    public static let backlogBytes = 64 * 1_024
    /// How long the daemon's last lines may wait for a slow reader at exit: long enough
    /// for a reader that is only behind, short enough that a stop stays prompt.
    public static let exitDrainTime: Duration = .seconds(1)

    private struct State {
        var backlog: [UInt8] = []
        /// Lines lost since the backlog was last full; more are lost while it is over half full.
        var lost = 0
        /// The reader went away (EPIPE): lines go nowhere, as they would to a closed pipe.
        var gone = false
    }

    /// How lines reach the reader.
    private enum Channel {
        /// A non-blocking file description of our own on the same pipe or terminal.
        case own(Int32)
        /// A socket: `send` with MSG_DONTWAIT.
        case socket(Int32)
        /// A regular file, or what /proc could not reopen: written when poll says so.
        case inherited(Int32)

        var descriptor: Int32 {
            switch self {
            case let .own(fd), let .socket(fd), let .inherited(fd): fd
            }
        }
    }

    private let channel: Channel
    /// Makes a warning log line of a text, as the logger would.
    private let warning: @Sendable (String) -> String
    private let state = Mutex(State())

    /// Logs to `descriptor` (standard error), which must be open.
    public init(descriptor: Int32, warning: @escaping @Sendable (String) -> String) {
        self.warning = warning
        var status = stat()
        let kind = fstat(descriptor, &status) == 0 ? status.st_mode & S_IFMT : 0
        if kind == S_IFSOCK {
            channel = .socket(descriptor)
        } else if kind == S_IFIFO || kind == S_IFCHR {
            let own = open("/proc/self/fd/\(descriptor)", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            channel = own >= 0 ? .own(own) : .inherited(descriptor)
        } else {
            channel = .inherited(descriptor)
        }
    }

    deinit {
        if case let .own(fd) = channel { close(fd) }
    }

    /// Queues `line` (escaped already) and writes what the reader takes now. Once the
    /// backlog is full, lines are lost until the reader has taken half of it; then a
    /// warning says how many were.
    public func offer(_ line: String) {
        state.withLock { state in
            guard !state.gone else { return }
            sayWhatWasLost(&state)
            let bytes = Self.bytes(line)
            guard state.lost == 0, state.backlog.count + bytes.count <= Self.backlogBytes else {
                state.lost += 1
                return
            }
            state.backlog += bytes
            flush(&state)
        }
    }

    /// Lines waiting for the reader.
    public var isEmpty: Bool { state.withLock { $0.backlog.isEmpty } }

    /// For the daemon's last words: waits at most `limit` for the backlog to go out.
    public func drain(within limit: Duration) {
        let descriptor = channel.descriptor
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

    public func collect(_ interest: inout PollInterest) {
        if !isEmpty { interest.write(channel.descriptor) }
    }
    public func handleReadable(_ fd: Int32) {}
    public func handleWritable(_ fd: Int32) { state.withLock { flush(&$0) } }
    public var nextDeadline: Timestamp? { nil }
    public func handleDeadlines() {}

    // MARK: Internals

    /// Writes whole lines, at most `PIPE_BUF` bytes a write, while the reader takes them.
    private func flush(_ state: inout State) {
        while !state.backlog.isEmpty {
            if case .inherited = channel, !readyForWriting() { return }
            let window = state.backlog.prefix(Int(PIPE_BUF))
            let end = window.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? window.count
            let written = state.backlog.withUnsafeBytes { bytes in
                switch channel {
                case let .socket(fd): send(fd, bytes.baseAddress, end, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                case let .own(fd), let .inherited(fd): write(fd, bytes.baseAddress, end)
                }
            }
            guard written <= 0 else {
                state.backlog.removeFirst(written)
                sayWhatWasLost(&state)
                continue
            }
            switch written < 0 ? errno : 0 {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                return  // the loop polls for POLLOUT while lines wait
            case EPIPE, EIO:
                // The reader went away (or the terminal hung up): lines go nowhere, as
                // they would to a closed pipe.
                state.gone = true
                state.backlog.removeAll()
                return
            default:
                // It cannot take them (ENOSPC, ...): these lines are lost, later ones may not be.
                state.lost += window[..<end].count { $0 == UInt8(ascii: "\n") }
                state.backlog.removeFirst(end)
                return
            }
        }
    }

    /// Once lines were lost and the backlog is no more than half full, queues a warning
    /// that says how many.
    private func sayWhatWasLost(_ state: inout State) {
        guard state.lost > 0, state.backlog.count <= Self.backlogBytes / 2 else { return }
        let count = state.lost
        state.backlog += Self.bytes(warning("\(count) log line\(count == 1 ? " was" : "s were") lost: standard error was not being read"))
        state.lost = 0
    }

    private func readyForWriting() -> Bool {
        var entry = pollfd(fd: channel.descriptor, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&entry, 1, 0)
            if ready < 0 && errno == EINTR { continue }
            return ready == 1 && entry.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0
        }
    }

    /// The line and its newline, cut to `PIPE_BUF` bytes at a character, ending in `...`.
    public static func bytes(_ line: String) -> [UInt8] {
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
