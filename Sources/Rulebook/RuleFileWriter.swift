import Glibc

/// Writes a rule file so that it is always whole and valid: what every command that
/// writes one (`touchgest learn --append`, `touchgest init`) goes through.
///
/// It reads the file first (``init(reading:)``), then ``commit(_:)`` writes the new text
/// into a new file beside it (same folder, a hidden temporary name, flushed to the disk
/// with fsync) and renames that over the file. So:
/// - a full disk or any failed write leaves the old file exactly as it was, and a new
///   file is never left empty or half-written: the temporary file is removed;
/// - the new text is parsed first and refused with the errors `touchgest check` would
///   print, so the file is never left invalid;
/// - the file keeps its mode, owner and group; a new one is made mode 600 (its folders 700);
/// - a symlinked rule file (a dotfile manager's) stays a link: its target is written,
///   even a target that does not exist yet;
/// - a file that changed since it was read (another program saved it: in place, or by
///   renaming a new file over it) is refused, and what that program saved is kept.
///   Only a save in the microseconds between that check and the rename can still be lost.
public struct RuleFileWriter {
    /// Why the text was not written; the file is as it was.
    public enum Refusal: Error, CustomStringConvertible {
        /// The file there cannot be read (it is not a regular file, it is too large, ...).
        case unreadable(RuleFileError)
        /// The new text would not pass `touchgest check`: its errors (not its warnings).
        case invalid(RuleFileError)
        /// Another program changed the file since it was read.
        case changed(path: String)
        /// Writing failed (a full disk, a read-only file system, ...); `existed` tells
        /// whether there was a file (kept as it was) or none (none was made).
        case cannotWrite(path: String, existed: Bool, reason: String)

        public var description: String {
            switch self {
            case let .unreadable(error), let .invalid(error): error.description
            case let .changed(path):
                "\(path) changed since touchgest read it (another program saved it meanwhile); nothing was written and what that program saved is kept: run the command again"
            case let .cannotWrite(path, existed, reason):
                "cannot write \(path): \(reason); \(existed ? "the file was left as it was" : "no file was made")"
            }
        }
    }

    /// The rule file as named by the user (errors name it so).
    public let path: String
    /// Where its text lives: `path`, or the file its symlinks lead to.
    public let target: String
    /// The text read; nil when there is no file yet.
    public let text: String?
    /// The file as it was read: identity, size, time, mode and owner.
    private let original: stat?

    /// Most symlinks followed from `path` to the file, as the kernel's own limit (40).
    static let maximumLinks = 40

    /// Reads the rule file at `path` (or notes that there is none), following its symlinks.
    public init(reading path: String) throws(Refusal) {
        self.path = path
        target = try Self.resolve(path)
        var info = stat()
        if lstat(target, &info) != 0 && errno == ENOENT {
            text = nil
            original = nil
            return
        }
        do throws(RuleFileError) {
            let file = try RuleFile.open(target)
            defer { close(file.fd) }
            text = try RuleFile.read(file.fd, path: target)
            original = file.info
        } catch {
            throw .unreadable(error)
        }
    }

    /// Replaces the file's text with `text`, or makes the file: see the type's guarantees.
    public func commit(_ text: String) throws(Refusal) {
        do throws(RuleFileError) {
            _ = try Rulebook.parse(text, file: path)
        } catch {
            // The warnings beside the errors are the file's own, not why it is refused.
            throw .invalid(RuleFileError(diagnostics: error.diagnostics.filter { $0.severity == .error }))
        }
        let folder = RuleFile.parent(of: target)
        if original == nil, let why = Self.makeFolders(folder) { throw failed(why) }
        let name = target.split(separator: "/").last.map(String.init) ?? target
        var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
        // mkstemp makes the file exclusively, mode 600.
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failed("cannot make a file in \(folder): \(String(cString: strerror(errno)))") }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var isOpen = true
        func abandon(_ refusal: Refusal) -> Refusal {
            if isOpen { close(descriptor) }
            unlink(temporary)
            return refusal
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        if let why = Self.writeAll(text, to: descriptor) { throw abandon(failed(why)) }
        guard fsync(descriptor) == 0 else { throw abandon(failed(String(cString: strerror(errno)))) }
        if let original {
            guard fchmod(descriptor, original.st_mode & 0o7777) == 0 else {
                throw abandon(failed("cannot keep its mode \(String(original.st_mode & 0o7777, radix: 8)): \(String(cString: strerror(errno)))"))
            }
            var made = stat()
            if fstat(descriptor, &made) == 0, made.st_uid != original.st_uid || made.st_gid != original.st_gid,
               fchown(descriptor, original.st_uid, original.st_gid) != 0 {
                throw abandon(failed("cannot keep its owner (uid \(original.st_uid), gid \(original.st_gid)): \(String(cString: strerror(errno)))"))
            }
        }
        isOpen = false
        // NFS reports a failed write at the close.
        guard close(descriptor) == 0 else { throw abandon(failed(String(cString: strerror(errno)))) }
        guard unchanged() else { throw abandon(.changed(path: path)) }
        if original != nil {
            guard rename(temporary, target) == 0 else { throw abandon(failed(String(cString: strerror(errno)))) }
        } else if link(temporary, target) == 0 {
            // A new file: the link fails rather than replace one made meanwhile.
            unlink(temporary)
        } else {
            throw abandon(errno == EEXIST ? .changed(path: path) : failed(String(cString: strerror(errno))))
        }
        // The rename is on the disk once the folder is; the file is whole either way.
        let folderDescriptor = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private func failed(_ reason: String) -> Refusal {
        .cannotWrite(path: path, existed: original != nil, reason: reason)
    }

    /// Whether the file at `target` is still the one read, with the text read.
    private func unchanged() -> Bool {
        var now = stat()
        guard let original, let text else { return lstat(target, &now) != 0 && errno == ENOENT }
        guard lstat(target, &now) == 0 else { return false }
        guard now.st_dev == original.st_dev, now.st_ino == original.st_ino, now.st_size == original.st_size,
              now.st_mtim.tv_sec == original.st_mtim.tv_sec, now.st_mtim.tv_nsec == original.st_mtim.tv_nsec else { return false }
        // The clock that stamps files is coarse (a few ms): a save of the same size within
        // it keeps the time, so the text is compared too.
        return (try? Rulebook.readRuleFile(target)) == text
    }

    /// The file `path` names after its symlinks: the link's target, resolved from the
    /// link's folder, even when it does not exist.
    static func resolve(_ path: String) throws(Refusal) -> String {
        var current = path
        for _ in 0...maximumLinks {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                guard errno == ENOENT else { throw unreadable(path, "cannot read the rule file: \(String(cString: strerror(errno)))") }
                return current
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw unreadable(path, "cannot read the symlink \(current): \(String(cString: strerror(errno)))") }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : RuleFile.parent(of: current) + "/" + link
        }
        throw unreadable(path, "cannot read the rule file: more than \(maximumLinks) symlinks lead to it")
    }

    private static func unreadable(_ path: String, _ message: String) -> Refusal {
        .unreadable(RuleFileError(diagnostics: [Diagnostic(file: path, line: 0, column: 0, severity: .error, message: message)]))
    }

    /// Makes `folder` and those above it that are missing, mode 700; nil or why not.
    static func makeFolders(_ folder: String) -> String? {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/\(part)"
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                return "cannot make the folder \(current): \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }

    /// Writes all of `text`; nil or why not.
    private static func writeAll(_ text: String, to descriptor: Int32) -> String? {
        var remaining = text
        return remaining.withUTF8 { bytes -> String? in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return String(cString: strerror(written == 0 ? EIO : errno)) }
                offset += written
            }
            return nil
        }
    }
}
