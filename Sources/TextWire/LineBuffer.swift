/// Splits a byte stream into newline-terminated lines, at most ``maximumLineBytes``
/// each, in time linear in the bytes: what a desktop sends (the focus providers), and what
/// a subscriber reads from the events socket (`touchgest events`).
public struct LineBuffer: Sendable {
    private var pending: [UInt8] = []
    /// The longest line it keeps; a longer one is an error, not a growing buffer.
    public let maximumLineBytes: Int

    public init(maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// The complete lines `bytes` ends, without their newlines; throws once what waits
    /// for a newline is longer than ``maximumLineBytes``.
    public mutating func append(_ bytes: [UInt8]) throws(LineTooLong) -> [[UInt8]] {
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
            throw LineTooLong(maximumLineBytes: maximumLineBytes)
        }
        return lines
    }

    public mutating func reset() { pending = [] }

    /// The room kept between reads; more is given back once the line that needed it ends.
    static let keptCapacity = 64 << 10

    /// What came after the last newline.
    public var rest: [UInt8] { pending }
}

/// A line went past ``LineBuffer/maximumLineBytes`` without its newline.
public struct LineTooLong: Error, Hashable, Sendable, CustomStringConvertible {
    public let maximumLineBytes: Int

    /// `a line longer than 4194304 bytes`.
    public var description: String { "a line longer than \(maximumLineBytes) bytes" }
}
