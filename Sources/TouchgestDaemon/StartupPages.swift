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
    @discardableResult
    static func release() -> Int? {
        guard let smaps = readProcFile("/proc/self/smaps") else { return nil }
        var released = 0
        var candidate: (start: UInt, end: UInt)?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 5, !range.hasSuffix(":") {
                // "start-end perms offset dev inode [path]"
                candidate = nil
                let bounds = range.split(separator: "-")
                let permissions = fields[1]
                let path = fields.count >= 6 ? fields[5] : ""
                if bounds.count == 2, path.hasPrefix("/"), !permissions.contains("w"),
                   let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16) {
                    candidate = (start, end)
                }
            } else if fields.first == "Anonymous:", let mapping = candidate {
                candidate = nil
                guard fields.count >= 2, fields[1] == "0",
                      let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
                if madvise(address, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 { released += 1 }
            }
        }
        return released
    }

    /// The whole of a /proc file (its size reads as 0, so read until the end).
    private static func readProcFile(_ path: String) -> String? {
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
        return String(decoding: bytes, as: UTF8.self)
    }
}
