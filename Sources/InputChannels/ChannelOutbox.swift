import Glibc
import InputActions
import TouchGestures

/// What waits to go to a desktop on one connection: the presses not yet encoded, oldest
/// first, and the requests encoded ahead of what the socket has taken. A long text is
/// encoded a piece at a time (``InputChannelDefaults/textPiece`` characters) only while
/// fewer than ``InputChannelDefaults/encodedAhead`` bytes wait, so what it costs is
/// bounded whatever its length; at most ``InputChannelDefaults/writeBudget`` bytes go out
/// per wake-up; and a desktop that takes nothing for ``InputChannelDefaults/writeStall``
/// while requests wait is not reading (``stallDeadline``).
struct ChannelOutbox {
    /// How a ``pump(now:encode:write:)`` ended.
    enum Pump: Equatable {
        /// Everything waiting went out.
        case drained
        /// More waits: the socket is full, or this wake-up's budget is spent. Poll for
        /// writing and pump again.
        case waiting
        /// The desktop is gone (EPIPE, ECONNRESET, ...): the errno.
        case broken(Int32)
    }

    /// Presses not yet encoded; the first may be a text partly encoded up to `textCursor`.
    private var presses: [InputAction] = []
    private var textCursor: String.UnicodeScalarView.Index?
    /// Encoded requests; `bytes[..<offset]` are written.
    private var bytes: [UInt8] = []
    private var offset = 0
    /// When the desktop last took a byte, or when bytes began to wait for it.
    private var lastProgress: Timestamp?

    /// Encoded bytes waiting for the socket (for tests: what the outbox holds).
    var waitingBytes: Int { bytes.count - offset }
    /// Presses waiting, the one being sent included.
    var waitingPresses: Int { presses.count }
    var isEmpty: Bool { presses.isEmpty && waitingBytes == 0 }

    /// When the desktop will have taken nothing for ``InputChannelDefaults/writeStall``
    /// while something waits; nil while nothing waits.
    var stallDeadline: Timestamp? {
        guard !isEmpty, let lastProgress else { return nil }
        return lastProgress + InputChannelDefaults.writeStall
    }

    /// Queues `action` at `now`; false when ``InputChannelDefaults/maximumWaitingPresses``
    /// already wait (the action is then not queued).
    mutating func enqueue(_ action: InputAction, at now: Timestamp) -> Bool {
        guard presses.count < InputChannelDefaults.maximumWaitingPresses else { return false }
        if isEmpty { lastProgress = now }
        presses.append(action)
        return true
    }

    /// Drops everything waiting (the connection is gone).
    mutating func removeAll() {
        presses.removeAll()
        textCursor = nil
        bytes.removeAll()
        offset = 0
        lastProgress = nil
    }

    /// Encodes presses with `encode` (a whole action, or a piece of a text as `.text`)
    /// while few bytes wait, and writes them with `write` (a non-blocking `send(2)`: the
    /// bytes taken, or -1 with errno) until the socket is full or the wake-up's budget is
    /// spent.
    mutating func pump(now: Timestamp, encode: (InputAction) -> [UInt8], write: (UnsafeRawBufferPointer) -> Int) -> Pump {
        var written = 0
        while written < InputChannelDefaults.writeBudget {
            refill(encode)
            if waitingBytes == 0 {
                bytes.removeAll(keepingCapacity: true)
                offset = 0
                return .drained
            }
            let count = bytes.withUnsafeBytes { buffer in
                write(UnsafeRawBufferPointer(rebasing: buffer[offset..<min(bytes.count, offset + InputChannelDefaults.writeBudget - written)]))
            }
            if count > 0 {
                offset += count
                written += count
                lastProgress = now
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                return .broken(count < 0 ? errno : EPIPE)
            }
        }
        compact()
        return .waiting
    }

    /// Encodes the next pieces while fewer than ``InputChannelDefaults/encodedAhead`` bytes wait.
    private mutating func refill(_ encode: (InputAction) -> [UInt8]) {
        while waitingBytes < InputChannelDefaults.encodedAhead, let piece = nextPiece() {
            compact()
            bytes += encode(piece)
        }
    }

    /// The next whole action, or the next piece of the text being sent.
    private mutating func nextPiece() -> InputAction? {
        guard let first = presses.first else { return nil }
        guard case let .text(text) = first else {
            presses.removeFirst()
            return first
        }
        let scalars = text.unicodeScalars
        let start = textCursor ?? scalars.startIndex
        let end = scalars.index(start, offsetBy: InputChannelDefaults.textPiece, limitedBy: scalars.endIndex) ?? scalars.endIndex
        if end == scalars.endIndex {
            presses.removeFirst()
            textCursor = nil
        } else {
            textCursor = end
        }
        return .text(String(scalars[start..<end]))
    }

    /// Drops the written bytes once they are the larger part, so the buffer stays near
    /// its bound without moving bytes at every write.
    private mutating func compact() {
        guard offset > 0, offset >= bytes.count / 2 else { return }
        bytes.removeFirst(offset)
        offset = 0
    }
}
