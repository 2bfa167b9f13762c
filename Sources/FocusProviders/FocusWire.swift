import TextWire

/// A socket a provider opens, and the bytes it sends first.
public struct FocusEndpoint: Hashable, Sendable {
    public var path: String
    public var hello: [UInt8]

    public init(path: String, hello: [UInt8]) {
        self.path = path
        self.hello = hello
    }
}

/// What one piece of input asks for: bytes to send back on the same socket, and the
/// focus if it changed.
public struct FocusWireOutput: Hashable, Sendable {
    public var send: [UInt8] = []
    public var focus: WindowFocus?

    public init(send: [UInt8] = [], focus: WindowFocus? = nil) {
        self.send = send
        self.focus = focus
    }
}

/// A desktop's wire format broke: the connection is dropped and made again.
public struct FocusWireError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One desktop's wire format, with no I/O of its own: ``SocketFocusProvider`` opens the
/// sockets, feeds it what they read and sends what it answers. So each format is tested
/// on bytes alone, and the sockets once.
public protocol FocusWire: AnyObject {
    /// `sway`, `hyprland`, `niri`.
    var desktop: String { get }
    /// The sockets to open for a new connection, found anew each time (a restarted
    /// compositor may have moved its socket). The first carries the events: losing it is
    /// losing the desktop. The others answer one request and close. Throws when the
    /// environment names no socket that exists, saying what it looked for.
    func endpoints() throws(FocusWireError) -> [FocusEndpoint]
    /// Forgets everything about the last connection.
    func reset()
    /// Bytes arrived on endpoint `index`.
    func receive(_ bytes: [UInt8], from index: Int) throws(FocusWireError) -> FocusWireOutput
    /// Endpoint `index` (not the first) closed after its answer.
    func finished(_ index: Int) throws(FocusWireError) -> FocusWireOutput
    /// Part of a message has arrived and waits for the rest: the heap is not worth
    /// trimming until the message ends, since its parse is still to come.
    var holdsPartialMessage: Bool { get }
}

extension LineBuffer {
    /// A buffer for a desktop's messages, at most ``FocusDefaults/maximumMessageBytes`` a line.
    public init() { self.init(maximumLineBytes: FocusDefaults.maximumMessageBytes) }

    /// ``append(_:)`` with its error in the wire's terms.
    mutating func lines(_ bytes: [UInt8]) throws(FocusWireError) -> [[UInt8]] {
        do { return try append(bytes) } catch { throw FocusWireError(error.description) }
    }
}
