import Glibc

/// Lines waiting to go to one reader (a stream command's stdin or a subscriber's
/// socket), oldest first, so that a slow reader never blocks the loop.
///
/// A line marked coalescible (a `changed` phase) replaces the last queued line of the
/// same key (rule) when that one is coalescible too and not yet partly written: the
/// latest state wins. Every other line (began, ended, cancelled, recognized) stays.
struct Outbox {
    struct Line {
        var key: String
        var coalescible: Bool
        var bytes: [UInt8]
    }

    /// What a ``flush(_:)`` found.
    enum Flush: Equatable {
        /// Everything was written.
        case drained
        /// The reader's buffer is full; poll for writing and try again.
        case blocked
        /// The reader is gone (EPIPE, ECONNRESET, ...): the errno.
        case broken(Int32)
    }

    private(set) var lines: [Line] = []
    /// Bytes of `lines[0]` already written.
    private var offset = 0

    var isEmpty: Bool { lines.isEmpty }
    var count: Int { lines.count }

    mutating func append(key: String, coalescible: Bool, bytes: [UInt8]) {
        if coalescible, let index = lines.lastIndex(where: { $0.key == key }), lines[index].coalescible,
           index > 0 || offset == 0 {
            lines[index].bytes = bytes
            return
        }
        lines.append(Line(key: key, coalescible: coalescible, bytes: bytes))
    }

    /// Drops every waiting line (the reader is being restarted or dropped).
    mutating func removeAll() {
        lines.removeAll()
        offset = 0
    }

    /// Writes lines with `write` (a non-blocking `write(2)` or `send(2)`: bytes written,
    /// or -1 with errno) until it would block. Returns whether any byte went out, and how
    /// the flush ended.
    mutating func flush(_ write: (UnsafeRawBufferPointer) -> Int) -> (progressed: Bool, result: Flush) {
        var progressed = false
        while !lines.isEmpty {
            let written = lines[0].bytes.withUnsafeBytes { buffer in
                write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            }
            if written > 0 {
                progressed = true
                offset += written
                if offset == lines[0].bytes.count {
                    lines.removeFirst()
                    offset = 0
                }
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return (progressed, .blocked)
            } else {
                return (progressed, .broken(written < 0 ? errno : EPIPE))
            }
        }
        return (progressed, .drained)
    }
}
