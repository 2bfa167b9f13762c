import Glibc

/// Splits a stream of bytes into lines with bounded memory: a chunk buffer and at most
/// `RecordingLimits.maximumLineLength` bytes of the current line, however long the
/// line is. A line is never split in two: a longer one comes back truncated and marked
/// so, and the rest of it is skipped.
struct LineReader {
    /// One line without its newline (nor a `\r` before it).
    struct Line {
        /// The line's first bytes, all of them unless `truncated`.
        var bytes: [UInt8]
        /// The line was longer than the limit and `bytes` holds only its start.
        var truncated: Bool
    }

    /// Reads up to `buffer.count` bytes into the buffer: the count read, 0 at the end,
    /// or -1 with `errno` set.
    typealias Read = (UnsafeMutableRawBufferPointer) -> Int

    private let read: Read
    private let limit: Int
    private var chunk = [UInt8](repeating: 0, count: 65_536)
    private var start = 0
    private var end = 0
    private var atEnd = false

    init(limit: Int = RecordingLimits.maximumLineLength, read: @escaping Read) {
        self.limit = limit
        self.read = read
    }

    /// The next line, nil at the end of the stream, or the `errno` of a failed read.
    mutating func next() -> Result<Line, Errno>? {
        var line = Line(bytes: [], truncated: false)
        var sawAnything = false
        while true {
            if start == end {
                if atEnd { return sawAnything ? .success(finished(line)) : nil }
                switch fill() {
                case .success: break
                case let .failure(error): return .failure(error)
                }
                continue
            }
            sawAnything = true
            let newline = chunk[start..<end].firstIndex(of: UInt8(ascii: "\n"))
            let stop = newline ?? end
            let room = limit - line.bytes.count
            if stop - start > room {
                line.bytes += chunk[start..<(start + max(room, 0))]
                line.truncated = true
            } else {
                line.bytes += chunk[start..<stop]
            }
            if let newline {
                start = newline + 1
                return .success(finished(line))
            }
            start = end
        }
    }

    private func finished(_ line: Line) -> Line {
        var line = line
        if !line.truncated, line.bytes.last == UInt8(ascii: "\r") { line.bytes.removeLast() }
        return line
    }

    private mutating func fill() -> Result<Void, Errno> {
        while true {
            let count = chunk.withUnsafeMutableBytes { read($0) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Errno(errno))
            }
            start = 0
            end = count
            if count == 0 { atEnd = true }
            return .success(())
        }
    }
}

/// A C `errno` value with strerror's text.
struct Errno: Error {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    var text: String { String(cString: strerror(code)) }
}
