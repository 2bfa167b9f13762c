import Glibc
import PollLoop
import Rulebook
import TouchGestures

/// Watches a rule file with inotify and says when it changed, or when its folder went
/// away or came back. Nothing wakes up while nothing changes.
///
/// Watching the folder, not the file, keeps working when an editor saves by writing a
/// new file and renaming it over the old one. The folder's parent is watched too, so a
/// folder renamed away, deleted, or swapped for another (a dotfiles manager replacing
/// the folder or a symlink to it) is noticed: the watches are then set up again from
/// the path, and while the folder is missing the nearest folder above it that exists
/// is watched for it to come back. A rule file that is a symlink also has the folder
/// of its target watched, so saving the target reloads.
final class RuleWatcher: PollSource {
    /// What changed.
    enum Change: Equatable {
        /// The rule file (or its symlink, or its permissions) may have changed.
        case file
        /// The folder was moved, deleted or replaced and is there again (perhaps a
        /// different one): the watches now follow the folder at the path.
        case folderReplaced
        /// The folder is gone; `watching` is the nearest folder above it that exists,
        /// watched until the folder is back.
        case folderGone(watching: String)
    }

    /// What one inotify watch is for.
    private enum Role {
        /// The rule file's folder: the file's events, and the folder itself going away.
        case folder
        /// The folder's parent: `name` (the folder) created, moved or deleted there.
        case parent(name: String)
        /// The nearest existing folder above a missing one: `name` appearing there.
        case ancestor(name: String)
        /// The folder a symlinked rule file leads to: `name` (the target) written there.
        case target(name: String)
    }

    /// The folder of the rule file, absolute.
    let folder: String
    private let fd: Int32
    private let path: String
    private let name: String
    private let changed: (Change) -> Void
    private var watches: [Int32: [Role]] = [:]
    private var folderWatched = false

    private static let folderEvents = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
    private static let parentEvents = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
    private static let ancestorEvents = IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR
    private static let targetEvents = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ATTRIB

    /// Nil when inotify cannot be used or the folder cannot be watched (SIGHUP still reloads).
    init?(path: String, changed: @escaping (Change) -> Void) {
        let absolute = RuleFile.absolute(path)
        self.path = absolute
        folder = RuleFile.parent(of: absolute)
        name = String(absolute[absolute.index(after: absolute.lastIndex(of: "/")!)...])
        self.changed = changed
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        arm()
        guard folderWatched else {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    /// Sets every watch up again from the path as it is now.
    private func arm() {
        for wd in watches.keys { inotify_rm_watch(fd, wd) }
        watches = [:]
        folderWatched = add(folder, Self.folderEvents, .folder)
        if folderWatched {
            if folder != "/" { add(RuleFile.parent(of: folder), Self.parentEvents, .parent(name: RuleFile.lastComponent(folder))) }
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, let real = realpath(path, nil) {
                let target = String(cString: real)
                free(real)
                add(RuleFile.parent(of: target), Self.targetEvents, .target(name: RuleFile.lastComponent(target)))
            }
        } else {
            var missing = folder
            var above = RuleFile.parent(of: missing)
            while above != "/" && !add(above, Self.ancestorEvents, .ancestor(name: RuleFile.lastComponent(missing))) {
                missing = above
                above = RuleFile.parent(of: above)
            }
            if above == "/" { add("/", Self.ancestorEvents, .ancestor(name: RuleFile.lastComponent(missing))) }
        }
    }

    /// The nearest folder above the rule file's that is watched while it is missing.
    private var watchedAncestor: String {
        var above = RuleFile.parent(of: folder)
        var info = stat()
        while above != "/" && !(stat(above, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR) { above = RuleFile.parent(of: above) }
        return above
    }

    @discardableResult
    private func add(_ folder: String, _ events: Int32, _ role: Role) -> Bool {
        // IN_MASK_ADD: two roles can fall on one folder (a symlink to a file beside it).
        let wd = inotify_add_watch(fd, folder, UInt32(events | IN_MASK_ADD))
        guard wd >= 0 else { return false }
        watches[wd, default: []].append(role)
        return true
    }

    func collect(_ interest: inout PollInterest) { interest.readSteadily(fd) }

    func handleReadable(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var fileChanged = false
        var structureChanged = false
        var rearm = false
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let wd = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
                let mask = Int32(bitPattern: buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) })
                let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
                let entry = String(decoding: buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
                offset += 16 + length
                if mask & IN_Q_OVERFLOW != 0 {
                    // Events were lost: look at everything again.
                    structureChanged = true
                    continue
                }
                // Watches removed by arm() still send IN_IGNORED; they are no longer ours.
                for role in watches[wd] ?? [] {
                    let gone = mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0
                    switch role {
                    case .folder:
                        if gone {
                            structureChanged = true
                        } else if entry == name {
                            // A new empty file (CREATE) is not worth a reload, its CLOSE_WRITE
                            // follows; a new symlink has none, and may lead somewhere new.
                            if mask & IN_CREATE == 0 || isSymlink(path) { fileChanged = true }
                            if mask & (IN_CREATE | IN_MOVED_TO) != 0 { rearm = true }
                        } else if entry.isEmpty && mask & IN_ATTRIB != 0 {
                            // The folder's own mode changed (say, chmod g-w after a refusal).
                            fileChanged = true
                        }
                    case let .parent(name: folderName):
                        if gone || entry == folderName { structureChanged = true }
                    case let .ancestor(name: next):
                        if gone || entry == next { structureChanged = true }
                    case let .target(name: target):
                        if entry == target && mask & IN_CREATE == 0 { fileChanged = true }
                    }
                }
            }
        }
        if structureChanged {
            let wasWatched = folderWatched
            arm()
            if folderWatched {
                changed(.folderReplaced)
            } else if wasWatched {
                changed(.folderGone(watching: watchedAncestor))
            }
        } else if fileChanged {
            if rearm { arm() }
            changed(.file)
        }
    }

    private func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    var nextDeadline: Timestamp? { nil }
    func handleDeadlines() {}
}
