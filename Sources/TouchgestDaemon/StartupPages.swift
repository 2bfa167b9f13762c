import Glibc

/// Unmaps from the daemon the pages of code and read-only data that starting it touched,
/// once it is ready.
///
/// Most of what `VmRSS` counts for an idle `touchgest run` is clean pages of files: the
/// code that parsed the command line (swift-argument-parser builds its model by
/// reflection) and loaded the rules, which the loop never runs again. They stay in the
/// page cache; `madvise(MADV_DONTNEED)` only removes them from this process's page
/// table, and whatever the loop uses later comes back on first use as a minor fault
/// (no disk read while the file is cached). docs/packaging.md has the figures.
///
/// Only mappings that are read-only and hold no private (copied-on-write) page are
/// touched: for those, dropping a page and faulting it back gives the same bytes. The
/// relocated read-only data (RELRO) has private pages and is left alone.
enum StartupPages {
    /// Releases the pages; returns how many mappings it released, or nil if
    /// /proc/self/smaps could not be read.
    ///
    /// Read as bytes, not as a `String`: smaps is hundreds of kB, and splitting it into
    /// `Character`s cost more than everything else the daemon does to start.
    @discardableResult
    static func release() -> Int? {
        guard let smaps = readProcFile("/proc/self/smaps") else { return nil }
        var released = 0
        var candidate: (start: UInt, end: UInt)?
        for line in smaps.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains(UInt8(ascii: "-")), fields.count >= 5, first.last != UInt8(ascii: ":") {
                // "start-end perms offset dev inode [path]"
                candidate = nil
                let bounds = first.split(separator: UInt8(ascii: "-"))
                let permissions = fields[1]
                let isFile = fields.count >= 6 && fields[5].first == UInt8(ascii: "/")
                if bounds.count == 2, isFile, !permissions.contains(UInt8(ascii: "w")),
                   let start = hexadecimal(bounds[0]), let end = hexadecimal(bounds[1]) {
                    candidate = (start, end)
                }
            } else if first.elementsEqual("Anonymous:".utf8), let mapping = candidate {
                candidate = nil
                guard fields.count >= 2, fields[1].elementsEqual("0".utf8),
                      let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
                if madvise(address, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 { released += 1 }
            }
        }
        return released
    }

    /// A number written in hexadecimal digits, as smaps writes addresses.
    private static func hexadecimal(_ digits: ArraySlice<UInt8>) -> UInt? {
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        var value: UInt = 0
        for digit in digits {
            let nibble: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt(nibble)
        }
        return value
    }

    /// The whole of a /proc file (its size reads as 0, so read until the end).
    private static func readProcFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                bytes.append(contentsOf: buffer[..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return bytes
    }
}
