/// A command line the shell would only split into words and unquote, so it can be run
/// directly (one `execve`) instead of through `/bin/sh -c`, which costs a second program
/// start (the shell's own loading) before the command's first instruction.
///
/// Only a narrow, unambiguous form is accepted; everything else returns `nil` and runs
/// through the shell as before, so a command means exactly what `sh -c` would make of it:
/// - words separated by spaces or tabs;
/// - unquoted characters: letters, digits, any non-ASCII character, and `_ - . / : , + @ % ^ =`
///   (`=` not in the first word, where it would be a variable assignment);
/// - `'single quotes'` around anything but a single quote;
/// - `"double quotes"` around anything but `$`, `` ` ``, `\` and `"`;
/// - a first word that is no shell keyword or builtin (`cd`, `echo`, `if`, `true`, ...),
///   since a builtin's behaviour can differ from the program of the same name.
///
/// Anything a shell would expand or interpret (`$`, `` ` ``, `\`, `;`, `&`, `|`, `<`, `>`,
/// `(`, `)`, `*`, `?`, `[`, `]`, `{`, `}`, `~`, `#`, `!`, a newline, a control character)
/// makes the command a shell command.
public struct DirectCommand: Sendable, Equatable {
    /// The words as the shell would pass them to the program; the first is the program's name
    /// as written (a path, or a name to look up in `PATH`).
    public var arguments: [String]

    /// Shell keywords and the builtins of dash and bash that a POSIX `sh` may run in place of
    /// a program of the same name.
    static let shellWords: Set<String> = [
        "!", "{", "}", "case", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in",
        "select", "then", "time", "until", "while",
        ".", ":", "[", "alias", "bg", "break", "builtin", "cd", "chdir", "command", "continue", "declare",
        "echo", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "jobs", "kill",
        "let", "local", "printf", "pwd", "read", "readonly", "return", "set", "shift", "source", "test",
        "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait",
    ]

    /// Unquoted ASCII characters besides letters and digits that a shell takes literally.
    static let plainPunctuation: Set<Unicode.Scalar> = ["_", "-", ".", "/", ":", ",", "+", "@", "%", "^", "="]

    /// Splits `command` into words when it has the plain form described above; `nil` when a
    /// shell is needed to read it.
    public init?(_ command: String) {
        var words: [String] = []
        var word = ""
        var inWord = false
        var scalars = command.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'", "\"":
                inWord = true
                guard Self.appendQuoted(closedBy: scalar, from: &scalars, to: &word) else { return nil }
            default:
                guard Self.isPlain(scalar), !(scalar == "=" && words.isEmpty) else { return nil }
                inWord = true
                word.unicodeScalars.append(scalar)
            }
        }
        if inWord { words.append(word) }
        guard let first = words.first, !first.isEmpty, !Self.shellWords.contains(first) else { return nil }
        arguments = words
    }

    /// Reads up to the closing `quote`, appending what it quotes to `word`. False when the
    /// quote is never closed, or when a double quote holds `$`, `` ` `` or `\`, which a shell
    /// would expand or escape.
    static func appendQuoted(closedBy quote: Unicode.Scalar, from scalars: inout String.UnicodeScalarView.Iterator,
                             to word: inout String) -> Bool {
        while let quoted = scalars.next() {
            if quoted == quote { return true }
            if quote == "\"", quoted == "$" || quoted == "`" || quoted == "\\" { return false }
            word.unicodeScalars.append(quoted)
        }
        return false
    }

    static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x80...: true
        default: plainPunctuation.contains(scalar)
        }
    }
}
