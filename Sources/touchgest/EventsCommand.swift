import ArgumentParser
import CProcess
import FocusProviders
import Glibc
import GestureStreams

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the running daemon's gestures as JSON lines, as they happen.",
        discussion: """
            Connects to the socket touchgest run serves (owner-only, under $XDG_RUNTIME_DIR) and
            prints one JSON line per phase of every rule's gesture (began, changed, ended,
            cancelled; recognized for taps and swipes), or only of the rules named: the same
            lines a rule's stream command gets (touchgest-rules(5), STREAMS), and a line
            {"v":1,"session":"locked"} whenever the session stops or starts acting (locked,
            inactive, sleeping, unlocked; at once when it joins while not unlocked). Up to 256
            subscribers may come and go. A subscriber that reads slowly gets changed lines
            coalesced (the latest wins), never loses began, ended or cancelled, and is dropped
            when it reads nothing for 2 seconds while lines wait. Exits 0 when the daemon stops
            (or drops it), 1 when no daemon serves the socket, the connection fails, the daemon
            refuses a subscriber past its 256, or the socket's folder is not yours alone
            (another user could have put a socket there).
            """
    )

    @OptionGroup var socket: EventsSocketOptions

    @Argument(help: ArgumentHelp("Rules to print (default: every rule).", valueName: "rule"))
    var rules: [String] = []

    func run() throws {
        guard let path = socket.path else {
            printError("touchgest: error: XDG_RUNTIME_DIR is not set, so there is no events socket to find; give --events-socket PATH")
            throw ExitCode(1)
        }
        if let problem = SocketFolder.problem(forSocketAt: path) {
            printError("touchgest: error: will not connect to \(path): \(problem)")
            throw ExitCode(1)
        }
        let fd = cprocess_unix_connect(path)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            printError("touchgest: error: cannot connect to \(path): \(reason); is touchgest run running?")
            throw ExitCode(1)
        }
        defer { close(fd) }
        // A reader of our output that goes away ends us quietly (EPIPE), not by a signal.
        signal(SIGPIPE, SIG_IGN)
        let wanted = Set(rules)
        var lines = LineBuffer(maximumLineBytes: StreamDefaults.maximumEventLineBytes)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                printError("touchgest: error: reading \(path): \(String(cString: strerror(errno)))")
                throw ExitCode(1)
            }
            guard count > 0 else { return }
            let complete: [[UInt8]]
            do {
                complete = try lines.append(Array(buffer[..<count]))
            } catch {
                printError("touchgest: error: \(path) sent \(error); it is not touchgest run's events socket")
                throw ExitCode(1)
            }
            // A line the daemon sends instead of events: why it refused us.
            if let refusal = complete.lazy.compactMap({ (try? JSONValue.parse($0[...]))?["error"]?.string }).first {
                printError("touchgest: error: \(refusal)")
                throw ExitCode(1)
            }
            var output = ""
            // The session's lines (locked, unlocked, ...) concern every rule.
            for line in complete where wanted.isEmpty || Self.concerns(line, wanted) {
                // The daemon escapes every control character in its JSON; whatever else
                // is on the socket cannot drive the terminal either.
                output += String(decoding: line, as: UTF8.self).escapingControlCharacters + "\n"
            }
            guard Self.writeAll(Array(output.utf8)) else { return }
        }
    }

    /// Whether a line is one of the `wanted` rules', or the session's.
    private static func concerns(_ line: [UInt8], _ wanted: Set<String>) -> Bool {
        guard let value = try? JSONValue.parse(line[...]) else { return false }
        if value["session"]?.string != nil && value["rule"] == nil { return true }
        return value["rule"]?.string.map(wanted.contains) == true
    }

    private static func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
