import Glibc
extension StarterRules {
    /// The whole starter file for `desktop`: a header saying where it came from, then the rules.
    public static func file(for desktop: Desktop) -> String {
        header(for: desktop) + text(for: desktop)
    }

    /// The comment above the desktop's example rules.
    static func header(for desktop: Desktop) -> String {
        """
        # Written by `touchgest init` for \(desktop.title). Edit it freely: `touchgest check`
        # validates it, `touchgest debug` shows which rule each gesture fires (and, with no
        # rule file, the name and rule of every gesture), and `touchgest run` reloads it when
        # you save. Every key: man touchgest-rules.
        \n
        """
    }

    /// Creates `path` (and the folders to it, private) holding `text`, mode 600; never
    /// replaces or follows anything already there. Returns why not, or nil.
    public static func writeNew(_ path: String, _ text: String) -> String? {
        var folder = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            folder += "/\(part)"
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                return "cannot make the folder \(folder): \(String(cString: strerror(errno)))"
            }
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = errno
            var status = stat()
            if reason == EEXIST && lstat(path, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFLNK {
                    return "\(path) is a symlink; touchgest init never writes through one. Point touchgest at the file it names with --rules, or remove the link and run init again"
                }
                return "\(path) already exists; touchgest init never overwrites a rule file. Check it with 'touchgest check', or move it away (mv '\(path)' '\(path).old') and run init again"
            }
            return "cannot create \(path): \(String(cString: strerror(reason)))"
        }
        defer { close(descriptor) }
        // umask may have taken bits away, never added any; state the mode outright.
        fchmod(descriptor, 0o600)
        var remaining = text
        let failed = remaining.withUTF8 { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return true }
                offset += written
            }
            return false
        }
        if failed {
            let reason = String(cString: strerror(errno))
            unlink(path)
            return "cannot write \(path): \(reason)"
        }
        return nil
    }
}
