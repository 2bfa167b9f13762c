import Glibc
import Rulebook
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

    /// Creates `path` (and the folders to it, private) holding `text`, mode 600, through
    /// ``RuleFileWriter`` (never left empty or half-written); never replaces or follows
    /// anything already there. Returns why not, or nil.
    public static func writeNew(_ path: String, _ text: String) -> String? {
        var status = stat()
        if lstat(path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFLNK {
                return "\(path) is a symlink; touchgest init never writes through one. Point touchgest at the file it names with --rules, or remove the link and run init again"
            }
            return exists(path)
        }
        do throws(RuleFileWriter.Refusal) {
            let writer = try RuleFileWriter(reading: path)
            guard writer.text == nil else { return exists(path) }
            try writer.commit(text)
            return nil
        } catch {
            switch error {
            case .changed: return exists(path)
            case let .cannotWrite(_, _, reason): return "cannot write \(path): \(reason)"
            case .unreadable, .invalid: return error.description
            }
        }
    }

    private static func exists(_ path: String) -> String {
        "\(path) already exists; touchgest init never overwrites a rule file. Check it with 'touchgest check', or move it away (mv '\(path)' '\(path).old') and run init again"
    }
}
