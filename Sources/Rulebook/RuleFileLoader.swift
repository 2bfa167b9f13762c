import Glibc

extension Rulebook {
    /// The largest rule file touchgest reads, in bytes (1 MiB): hundreds of times the
    /// longest hand-written file, and small enough that a wrong path (a log, /dev/zero)
    /// is refused at once instead of being read without end.
    public static let maximumFileSize = 1 << 20

    /// Reads, checks and parses the rule file at `path`.
    ///
    /// The file is opened without blocking and must be a regular file (a symlink to one
    /// is fine) of at most ``maximumFileSize`` bytes: a FIFO, a device or a folder is
    /// refused with what it is, never read.
    ///
    /// A file that anyone but you could change is refused: whoever can edit it can make
    /// touchgest run commands as you. So the file must be owned by you or root and not
    /// writable by its group or by others, and no folder above it (up to `/`, along the
    /// path as written and along the path the symlinks lead to) may be writable by its
    /// group or others unless it is sticky like `/tmp`.
    ///
    /// With `requireSafePermissions` false (nothing will run: a replay), the permission
    /// problems become warnings.
    public static func load(path: String, requireSafePermissions: Bool = true) throws(RuleFileError) -> Rulebook {
        let file = try RuleFile.open(path)
        defer { close(file.fd) }
        var unsafe: [Diagnostic] = []
        let problems = RuleFile.permissionProblems(path, info: file.info)
        if !problems.isEmpty {
            guard !requireSafePermissions else { throw RuleFileError(diagnostics: problems) }
            unsafe = problems.map { diagnostic in
                var warning = diagnostic
                warning.severity = .warning
                return warning
            }
        }
        let text = try RuleFile.read(file.fd, path: path)
        var book = try parse(text, file: path)
        book.warnings = unsafe + book.warnings
        return book
    }

    /// The text of a regular file of at most ``maximumFileSize`` bytes, without the
    /// permission checks.
    static func readRuleFile(_ path: String) throws(RuleFileError) -> String {
        let file = try RuleFile.open(path)
        defer { close(file.fd) }
        return try RuleFile.read(file.fd, path: path)
    }
}

/// Opening and vetting a rule file: the file's own checks, before any parsing.
public enum RuleFile {
    /// Opens `path` for reading without blocking (a FIFO would wait for a writer) and
    /// accepts only a regular file no larger than ``Rulebook/maximumFileSize``.
    static func open(_ path: String) throws(RuleFileError) -> (fd: Int32, info: stat) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw error(path, "cannot read the rule file: \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw error(path, "cannot read the rule file: \(reason)")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw error(path, "refusing the rule file: \(describe(path, info)), not a regular file; point touchgest at a regular file (a symlink to one is fine)")
        }
        guard Int(info.st_size) <= Rulebook.maximumFileSize else {
            close(fd)
            throw error(path, "refusing the rule file: it is larger than 1 MiB (\(info.st_size) bytes); rule files are limited to 1 MiB")
        }
        return (fd, info)
    }

    /// Reads at most ``Rulebook/maximumFileSize`` bytes (the file may have grown since it
    /// was opened) and checks they are UTF-8.
    static func read(_ fd: Int32, path: String) throws(RuleFileError) -> String {
        let limit = Rulebook.maximumFileSize
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw error(path, "cannot read the rule file: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            count += got
        }
        guard count <= limit else {
            throw error(path, "refusing the rule file: it is larger than 1 MiB (it grew while being read); rule files are limited to 1 MiB")
        }
        guard let text = String(validating: bytes[..<count], as: UTF8.self) else {
            throw error(path, "the rule file is not UTF-8 text")
        }
        return text
    }

    /// `it is a FIFO`, or `it is a symlink to '/dev/zero', a character device`.
    static func describe(_ path: String, _ info: stat) -> String {
        let kind = switch info.st_mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a folder"
        case S_IFSOCK: "a socket"
        default: "not a regular file (mode \(String(info.st_mode, radix: 8)))"
        }
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, let target = realpath(path, nil) {
            defer { free(target) }
            return "it is a symlink to '\(String(cString: target))', \(kind)"
        }
        return "it is \(kind)"
    }

    // MARK: Permissions

    /// Everything that would let another user change the rules, one diagnostic each.
    static func permissionProblems(_ path: String, info: stat) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let me = getuid()
        if info.st_uid != me && info.st_uid != 0 {
            let fix = me == 0 ? "chown root '\(path)'" : "sudo chown \(userName(me) ?? String(me)) '\(path)'"
            problems.append(diagnostic(path, "refusing a rule file owned by \(describe(user: info.st_uid)): its owner can make touchgest run commands as you; it must be owned by you (\(userName(me) ?? "uid \(me)")) or by root; fix it with: \(fix)"))
        }
        let writable = info.st_mode & (S_IWGRP | S_IWOTH)
        if writable != 0 {
            let who = info.st_mode & S_IWOTH != 0 ? "any user" : "its group"
            problems.append(diagnostic(path, "refusing a rule file that \(who) can write (mode \(String(info.st_mode & 0o777, radix: 8))): whoever can edit it can run commands as you; fix it with: chmod go-w '\(path)'"))
        }
        var seen: Set<[UInt64]> = []
        for folder in folders(above: path) {
            var folderInfo = stat()
            guard stat(folder, &folderInfo) == 0, seen.insert([UInt64(folderInfo.st_dev), UInt64(folderInfo.st_ino)]).inserted else { continue }
            let mode = folderInfo.st_mode
            // A sticky folder such as /tmp lets users replace only their own files.
            guard mode & (S_IWGRP | S_IWOTH) != 0, mode & S_ISVTX == 0 else { continue }
            let who = mode & S_IWOTH != 0 ? "any user" : "its group"
            let bits = (mode & S_IWGRP != 0 ? "g" : "") + (mode & S_IWOTH != 0 ? "o" : "")
            problems.append(diagnostic(path, "refusing a rule file in '\(folder)', which \(who) can write (mode \(String(mode & 0o777, radix: 8))): they could replace the rule file and run commands as you; fix it with: chmod \(bits)-w '\(folder)'"))
        }
        return problems
    }

    /// The folders from the file's up to `/`, along the path as written (made absolute)
    /// and then along the real path its symlinks lead to.
    static func folders(above path: String) -> [String] {
        var chains = [absolute(path)]
        if let real = realpath(path, nil) {
            chains.append(String(cString: real))
            free(real)
        }
        var folders: [String] = []
        for chain in chains {
            var current = chain
            while current != "/" {
                current = parent(of: current)
                if !folders.contains(current) { folders.append(current) }
            }
        }
        return folders
    }

    // MARK: Paths (the rule file's, and its watcher's)

    /// `/a/b` for `/a/b/c`, `/` for `/a`, `.` for `a`.
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// `path` from the working folder, without its leading `./`.
    public static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let cwd = getcwd(nil, 0) else { return "/" + path }
        defer { free(cwd) }
        var base = String(cString: cwd)
        if !base.hasSuffix("/") { base += "/" }
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return base + relative
    }

    /// `c` for `/a/b/c`, `/` for `/`.
    public static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? "/"
    }

    static func userName(_ uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// `nobody (uid 65534)`, or `uid 1234` for a uid with no name.
    static func describe(user uid: uid_t) -> String {
        userName(uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
    }

    private static func diagnostic(_ path: String, _ message: String) -> Diagnostic {
        Diagnostic(file: path, line: 0, column: 0, severity: .error, message: message)
    }

    private static func error(_ path: String, _ message: String) -> RuleFileError {
        RuleFileError(diagnostics: [diagnostic(path, message)])
    }
}
