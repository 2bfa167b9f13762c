import Glibc

/// A client's stream socket to a desktop's unix socket, made without blocking: a unix
/// socket connects at once or not at all. A listener that never accepts fills its
/// queue, and a blocking connect to it then waits for ever (with the loop, and SIGTERM,
/// waiting behind it); without blocking the connect fails with EAGAIN, and the caller
/// tries again later.
public enum UnixSocket {
    /// Why a connect or a send failed: its errno, said as a desktop's socket means it.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var code: Int32
        /// The socket connected and did not take the hello.
        public var sending = false
        public init(_ code: Int32, sending: Bool = false) {
            self.code = code
            self.sending = sending
        }
        public var description: String {
            // What EAGAIN means from a non-blocking connect or send on a unix socket.
            code == EAGAIN ? "it takes no connection or data now (its queue is full: is the desktop stuck?)"
                : String(cString: strerror(code))
        }
    }

    /// A connected, non-blocking, close-on-exec socket to `path`, with `hello` sent (it
    /// must be far smaller than a new socket's buffer, a few kilobytes at most).
    public static func connect(_ path: String, hello: [UInt8] = []) -> Result<Int32, Failure> {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .failure(Failure(errno)) }
        func fail(_ code: Int32, sending: Bool = false) -> Result<Int32, Failure> {
            close(fd)
            return .failure(Failure(code, sending: sending))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return fail(ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return fail(errno) }
        guard sendAll(fd, hello) else { return fail(errno == 0 ? EPIPE : errno, sending: true) }
        return .success(fd)
    }

    /// Sends all of `bytes` on a fresh socket, whose buffer takes them at once; false when
    /// it did not (the peer went away, or its queue is full).
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
