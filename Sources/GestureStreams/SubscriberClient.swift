import CProcess
import Glibc
import TextWire

/// The subscriber's side of the events socket ``SubscriberServer`` serves: what
/// `touchgest events` runs. It connects, reads the daemon's JSON lines and hands on those
/// of the rules asked for, and the session's, which concern every rule.
public enum SubscriberClient {
    /// Why following the socket failed; each names the socket.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The socket's folder is not the user's alone: another user could have put a socket there.
        case unsafeFolder(path: String, problem: String)
        case cannotConnect(path: String, reason: String)
        case reading(path: String, reason: String)
        /// What came was not JSON lines of bounded length.
        case notEventsSocket(path: String, problem: String)
        /// The daemon said why it will not serve this subscriber (past its limit).
        case refused(String)

        public var description: String {
            switch self {
            case let .unsafeFolder(path, problem): "will not connect to \(path): \(problem)"
            case let .cannotConnect(path, reason): "cannot connect to \(path): \(reason); is touchgest run running?"
            case let .reading(path, reason): "reading \(path): \(reason)"
            case let .notEventsSocket(path, problem): "\(path) sent \(problem); it is not touchgest run's events socket"
            case let .refused(why): why
            }
        }
    }

    /// Connects to the socket at `path` and hands `print` the lines of each read that are
    /// `rules`' (every rule's when empty) or the session's, as they come, until the daemon
    /// closes the socket or `print` returns false (its reader went away). The lines are
    /// as the socket sent them: whoever shows them escapes what could drive a terminal.
    public static func follow(socketAt path: String, rules: Set<String>, print: ([String]) -> Bool) throws(Failure) {
        if let problem = SocketFolder.problem(forSocketAt: path) { throw .unsafeFolder(path: path, problem: problem) }
        let fd = cprocess_unix_connect(path)
        guard fd >= 0 else { throw .cannotConnect(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var lines = LineBuffer(maximumLineBytes: StreamDefaults.maximumEventLineBytes)
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw .reading(path: path, reason: String(cString: strerror(errno))) }
            guard count > 0 else { return }
            let complete: [[UInt8]]
            do {
                complete = try lines.append(Array(buffer[..<count]))
            } catch {
                throw .notEventsSocket(path: path, problem: error.description)
            }
            // A line the daemon sends instead of events: why it refused us.
            if let refusal = complete.lazy.compactMap({ (try? JSONValue.parse($0[...]))?["error"]?.string }).first {
                throw .refused(refusal)
            }
            let wanted = complete.filter { rules.isEmpty || concerns($0, rules) }.map { String(decoding: $0, as: UTF8.self) }
            guard print(wanted) else { return }
        }
    }

    /// Whether a line is one of the `wanted` rules', or the session's (locked, unlocked, ...).
    static func concerns(_ line: [UInt8], _ wanted: Set<String>) -> Bool {
        guard let value = try? JSONValue.parse(line[...]) else { return false }
        if value["session"]?.string != nil && value["rule"] == nil { return true }
        return value["rule"]?.string.map(wanted.contains) == true
    }
}
