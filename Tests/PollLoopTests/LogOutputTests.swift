import CProcess
import Glibc
import PollLoop
import TestSupport
import Testing

/// LogOutput on real descriptors: pipes, a socket pair and files, with the test as the
/// reader. Nothing here waits for a reader: a write that blocked would hang the test.
@Suite struct LogOutputTests {
    static func warning(_ text: String) -> String { "warning: \(text)" }

    /// A pipe the test reads; `capacity` shrinks it so a few lines fill it.
    final class Pipe {
        let read: Int32
        let write: Int32

        init(capacity: Int32? = nil) {
            // A write to a pipe whose reader left must fail with EPIPE, not kill the test.
            signal(SIGPIPE, SIG_IGN)
            var fds: [Int32] = [0, 0]
            cprocess_pipe_cloexec(&fds)
            read = fds[0]
            write = fds[1]
            if let capacity { _ = cprocess_set_pipe_size(write, capacity) }
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            close(read)
            close(write)
        }

        /// Everything the pipe holds now.
        func take() -> String { LogOutputTests.readAll(read) }
    }

    static func readAll(_ fd: Int32) -> String {
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            text += buffer[..<count]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Line `n` of a test: 100 bytes and the newline.
    static func line(_ n: Int) -> String {
        let label = "line \(n) "
        return label + String(repeating: "x", count: 100 - label.utf8.count)
    }

    @Test func linesGoOutAtOnceWhileTheReaderKeepsUp() {
        let pipe = Pipe()
        let output = LogOutput(descriptor: pipe.write, warning: Self.warning)
        output.offer("one")
        output.offer("two")
        #expect(pipe.take() == "one\ntwo\n")
        #expect(output.isEmpty)
        #expect(output.writeDescriptors.isEmpty, "nothing waits, so the loop is not asked to poll for POLLOUT")
    }

    @Test func theInheritedDescriptionStaysBlockingForTheCommandsThatShareIt() {
        let pipe = Pipe()
        let output = LogOutput(descriptor: pipe.write, warning: Self.warning)
        output.offer("one")
        #expect(fcntl(pipe.write, F_GETFL) & O_NONBLOCK == 0)
    }

    /// The pipe holds one page; the backlog 64 KiB. What neither holds is lost and
    /// counted, in order, and the count comes once the reader has caught up.
    @Test func aReaderThatStopsReadingCostsLinesBeyondTheBacklogAndIsToldHowMany() {
        let pipe = Pipe(capacity: 4_096)
        let output = LogOutput(descriptor: pipe.write, warning: Self.warning)
        let offered = 1_000
        for n in 0..<offered { output.offer(Self.line(n)) }
        #expect(!output.isEmpty)
        #expect(output.writeDescriptors.count == 1, "lines wait, so the loop polls for POLLOUT")

        var text = ""
        for _ in 0..<1_000 where !output.isEmpty {
            text += pipe.take()
            output.handleWritable(pipe.write)
        }
        text += pipe.take()
        #expect(output.isEmpty)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.removeLast() == "")
        let warning = lines.removeLast()
        #expect(lines == (0..<lines.count).map(Self.line), "the lines that went out are the first ones, whole and in order")
        #expect(lines.count * 101 <= 4_096 + LogOutput.backlogBytes)
        #expect(lines.count * 101 > LogOutput.backlogBytes, "the backlog was used")
        #expect(warning == "warning: \(offered - lines.count) log lines were lost: standard error was not being read")

        output.offer("after")
        #expect(pipe.take() == "after\n", "a reader that caught up gets every line again")
    }

    @Test func aReaderThatLeavesEndsLoggingQuietly() {
        let pipe = Pipe(capacity: 4_096)
        let output = LogOutput(descriptor: pipe.write, warning: Self.warning)
        for n in 0..<100 { output.offer(Self.line(n)) }
        close(pipe.read)
        output.handleWritable(pipe.write)
        #expect(output.isEmpty, "what waited is dropped")
        output.offer("more")
        #expect(output.isEmpty)
        #expect(output.writeDescriptors.isEmpty)
    }

    @Test func aSocketLikeJournaldsGetsLinesWithoutWaiting() {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var size: Int32 = 4_096
        setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let output = LogOutput(descriptor: fds[1], warning: Self.warning)
        for n in 0..<1_000 { output.offer(Self.line(n)) }
        #expect(fcntl(fds[1], F_GETFL) & O_NONBLOCK == 0, "the socket itself stays blocking")
        var text = ""
        for _ in 0..<1_000 where !output.isEmpty {
            text += Self.readAll(fds[0])
            output.handleWritable(fds[1])
        }
        text += Self.readAll(fds[0])
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.dropLast() == ArraySlice((0..<lines.count - 1).map(Self.line)))
        #expect(lines.last?.hasPrefix("warning: ") == true && lines.last?.hasSuffix(" log lines were lost: standard error was not being read") == true)
    }

    /// A log file that cannot be written for a while (a full disk, here a descriptor
    /// that was opened read-only) loses the lines it hits, not every line after.
    @Test func aWriteErrorLosesTheLinesItHitsAndLaterLinesSayHowMany() throws {
        let folder = temporaryFolder()
        let writable = open("\(folder)/log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        try #require(writable >= 0)
        defer { close(writable) }
        let stuck = open("\(folder)/log", O_RDONLY | O_CLOEXEC)
        try #require(stuck >= 0)
        defer { close(stuck) }

        let output = LogOutput(descriptor: stuck, warning: Self.warning)
        output.offer("lost one")
        output.offer("lost two")
        #expect(output.isEmpty, "a line that cannot be written does not wait for ever")
        // The descriptor can be written again.
        dup2(writable, stuck)
        output.offer("back")
        #expect(readText("\(folder)/log") == "warning: 2 log lines were lost: standard error was not being read\nback\n")
    }

    @Test func aLongLineIsCutAtACharacterToOneAtomicWrite() {
        let bytes = LogOutput.bytes(String(repeating: "é", count: 3_000))
        #expect(bytes.count <= Int(PIPE_BUF))
        #expect(bytes.count > Int(PIPE_BUF) - 6)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("é...\n"))
        #expect(Array(text.utf8) == bytes, "no character was cut in half")
        #expect(LogOutput.bytes("short") == Array("short\n".utf8))
    }

    @Test func drainGivesUpAtItsLimitWhenNobodyReads() {
        let pipe = Pipe(capacity: 4_096)
        let output = LogOutput(descriptor: pipe.write, warning: Self.warning)
        for n in 0..<100 { output.offer(Self.line(n)) }
        output.drain(within: .milliseconds(20))
        #expect(!output.isEmpty, "the lines still wait; the daemon is not held up")
    }
}
