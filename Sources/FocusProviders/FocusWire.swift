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

/// Splits a byte stream into newline-terminated lines, at most ``maximumLineBytes``
/// each, in time linear in the bytes: what a desktop sends, and what `touchgest events`
/// reads from its socket.
public struct LineBuffer: Sendable {
    private var pending: [UInt8] = []
    /// The longest line it keeps; a longer one is an error, not a growing buffer.
    public let maximumLineBytes: Int

    public init(maximumLineBytes: Int = FocusDefaults.maximumMessageBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// The complete lines `bytes` ends, without their newlines; throws once what waits
    /// for a newline is longer than ``maximumLineBytes``.
    public mutating func append(_ bytes: [UInt8]) throws(FocusWireError) -> [[UInt8]] {
        // What waited holds no newline: only the new bytes are searched, so a long line
        // arriving in many reads costs its length once, not once a read.
        var searchFrom = pending.count
        pending += bytes
        var lines: [[UInt8]] = []
        var start = 0
        while let end = pending[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(Array(pending[start..<end]))
            start = end + 1
            searchFrom = start
        }
        pending.removeFirst(start)
        // A long line's room is given back once it is taken: an array keeps its
        // capacity, and a megabyte title would hold a megabyte for good.
        if pending.capacity > Self.keptCapacity && pending.count <= Self.keptCapacity { pending = Array(pending) }
        if pending.count > maximumLineBytes {
            throw FocusWireError("a line longer than \(maximumLineBytes) bytes")
        }
        return lines
    }

    public mutating func reset() { pending = [] }

    /// The room kept between reads; more is given back once the line that needed it ends.
    static let keptCapacity = 64 << 10

    /// What came after the last newline.
    public var rest: [UInt8] { pending }
}
