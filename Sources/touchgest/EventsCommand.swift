import ArgumentParser
import Glibc
import TextWire
import TouchgestDaemon

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
        // A reader of our output that goes away ends us quietly (EPIPE), not by a signal.
        signal(SIGPIPE, SIG_IGN)
        do {
            try SubscriberClient.follow(socketAt: path, rules: Set(rules)) { lines in
                // The daemon escapes every control character in its JSON; whatever else
                // is on the socket cannot drive the terminal either.
                Self.writeAll(Array(lines.map { $0.escapingControlCharacters + "\n" }.joined().utf8))
            }
        } catch {
            printError("touchgest: error: \(error)")
            throw ExitCode(1)
        }
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
