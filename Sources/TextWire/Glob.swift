/// Shell-style glob: `*` any run of characters, `?` one character, the rest literal;
/// the one matcher for device names, `device-size` and window conditions.
///
/// It never recurses and never backtracks further than the last `*`, so it takes at
/// most (pattern length x text length) steps whatever the pattern: a glob of many
/// stars cannot hang the daemon or overflow its stack.
public func globMatches(_ pattern: String, _ text: String) -> Bool {
    globMatches(Array(pattern), Array(text))
}

/// ``globMatches(_:_:)-(String,String)`` on texts already split into characters, for a
/// text matched against many patterns (a window title against every rule's).
public func globMatches(_ pattern: [Character], _ text: [Character]) -> Bool {
    var p = 0
    var t = 0
    var star: Int?
    var resume = 0
    while t < text.count {
        if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) {
            p += 1
            t += 1
        } else if p < pattern.count && pattern[p] == "*" {
            star = p
            resume = t
            p += 1
        } else if let starAt = star {
            p = starAt + 1
            resume += 1
            t = resume
        } else {
            return false
        }
    }
    while p < pattern.count && pattern[p] == "*" { p += 1 }
    return p == pattern.count
}

/// The longest glob touchgest takes, in characters. Device names are at most 255 bytes
/// (EVIOCGNAME), and a pattern much longer than what it matches means nothing more; the
/// bound keeps a pattern's cost per match (its length times the text's) small.
public let maximumGlobLength = 1_024
