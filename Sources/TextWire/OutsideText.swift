/// How long a string from outside touchgest may be where it enters: a window's title or
/// application id, which the window itself chooses (a web page sets its own title).
///
/// Linux refuses to start a program with any one environment string over 128 KiB
/// (MAX_ARG_STRLEN, E2BIG), and every command gets the title in `TOUCHGEST_TITLE`: a
/// 1 MiB title stopped every command. 4 KiB is more than any title a person reads, and
/// keeps matching a glob against it cheap.
public let maximumOutsideTextBytes = 4_096

extension String {
    /// The text cut to at most `bytes` bytes of UTF-8, at a character boundary; the text
    /// itself when it is short enough.
    public func prefix(utf8Bytes bytes: Int) -> String {
        guard utf8.count > bytes else { return self }
        var count = 0
        var result = ""
        for character in self {
            count += character.utf8.count
            guard count <= bytes else { break }
            result.append(character)
        }
        return result
    }
}
