import TOML
import TextWire
import TouchGestures

/// The window keys of a rule: `application`, `title` and their negations.
extension RuleParser {
    static let windowKeys = ["application", "title", "not-application", "not-title"]

    /// Reads one window key into `condition`: a glob or a list of globs, none empty.
    mutating func setWindowKey(_ condition: inout WindowCondition, _ key: String, _ value: TOMLValue) {
        guard let globs = names(value, key, allowed: nil, what: "glob") else { return }
        if globs.isEmpty {
            error("\(key) is an empty list; give a glob such as \"firefox\" or \"*term*\", or leave the key out", at: value.position)
            return
        }
        if let long = globs.first(where: { $0.count > maximumGlobLength }) {
            error("\(key) has a glob \(long.count) characters long; a glob may have at most \(maximumGlobLength)", at: value.position)
            return
        }
        if globs.contains(where: { $0.allSatisfy(\.isWhitespace) }) {
            let what = key.hasSuffix("application") ? "application id or WM_CLASS, such as \"firefox\"" : "window title, such as \"*YouTube*\""
            error("\(key) has an empty glob; give an \(what)", at: value.position)
            return
        }
        switch key {
        case "application": condition.applications = globs
        case "title": condition.titles = globs
        case "not-application": condition.notApplications = globs
        default: condition.notTitles = globs
        }
    }
}
