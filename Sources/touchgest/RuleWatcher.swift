import Glibc
import PollLoop
import TouchGestures

/// Watches a rule file's folder with inotify and calls `changed` when the file was
/// written or replaced. Watching the folder, not the file, keeps working when an editor
/// saves by writing a new file and renaming it over the old one.
final class RuleWatcher: PollSource {
    private let fd: Int32
    private let name: String
    private let changed: () -> Void

    init?(path: String, changed: @escaping () -> Void) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        self.changed = changed
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        guard inotify_add_watch(fd, folder.isEmpty ? "/" : folder, mask) >= 0 else {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    var pollDescriptors: [Int32] { [fd] }

    func handleReadable(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var relevant = false
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                // A new empty file (CREATE) is not worth a reload; its CLOSE_WRITE follows.
                if String(decoding: nameBytes, as: UTF8.self) == name && mask & UInt32(IN_CREATE) == 0 { relevant = true }
                offset += 16 + length
            }
        }
        if relevant { changed() }
    }

    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}
