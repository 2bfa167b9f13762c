import ArgumentParser
import CProcess
import Glibc

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the running daemon's gestures as JSON lines, as they happen.",
        discussion: """
            Connects to the socket touchgest run serves (owner-only, under $XDG_RUNTIME_DIR) and
            prints one JSON line per phase of every rule's gesture (began, changed, ended,
            cancelled; recognized for taps and swipes), or only of the rules named: the same
            lines a rule's stream command gets (touchgest-rules(5), STREAMS). Any number of
            subscribers may come and go. A subscriber that reads slowly gets changed lines
            coalesced (the latest wins), never loses began, ended or cancelled, and is dropped
            when it reads nothing for 2 seconds while lines wait. Exits 0 when the daemon stops,
            1 when no daemon serves the socket.
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
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            pending.append(contentsOf: buffer[..<count])
            var output: [UInt8] = []
            var start = 0
            while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[start...end]
                if wanted.isEmpty || Self.rule(of: line).map(wanted.contains) == true { output.append(contentsOf: line) }
                start = end + 1
            }
            pending.removeFirst(start)
            guard Self.writeAll(output) else { return }
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

    /// The `rule` of a line: every line starts `{"v":N,"rule":"NAME"`, NAME JSON-escaped.
    static func rule(of line: ArraySlice<UInt8>) -> String? {
        let key = Array("\"rule\":\"".utf8)
        var index = line.startIndex
        while index + key.count <= line.endIndex, !line[index..<index + key.count].elementsEqual(key) { index += 1 }
        guard index + key.count <= line.endIndex else { return nil }
        var bytes: [UInt8] = []
        index += key.count
        while index < line.endIndex {
            let byte = line[index]
            index += 1
            if byte == UInt8(ascii: "\"") {
                return String(decoding: bytes, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\"), index < line.endIndex else {
                bytes.append(byte)
                continue
            }
            let escape = line[index]
            index += 1
            switch escape {
            case UInt8(ascii: "n"): bytes.append(10)
            case UInt8(ascii: "r"): bytes.append(13)
            case UInt8(ascii: "t"): bytes.append(9)
            case UInt8(ascii: "u"):
                guard index + 4 <= line.endIndex,
                      let value = UInt32(String(decoding: line[index..<index + 4], as: UTF8.self), radix: 16),
                      let scalar = Unicode.Scalar(value) else { return nil }
                bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
                index += 4
            default: bytes.append(escape)
            }
        }
        return nil
    }
}
