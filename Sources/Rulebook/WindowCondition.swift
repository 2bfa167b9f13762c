import TextWire
import TouchGestures

/// The window that has the keyboard focus: what a rule's `application` and `title`
/// conditions look at.
public struct FocusedWindow: Hashable, Sendable, CustomStringConvertible {
    /// The Wayland app id (sway, Hyprland's class, niri) or the X11 WM_CLASS class,
    /// e.g. `firefox`, `foot`, `org.gnome.Nautilus`.
    public let application: String
    /// The window title as the desktop reports it.
    public let title: String
    /// Both in lower case, split into characters once: what every rule's globs match.
    let applicationKey: [Character]
    let titleKey: [Character]

    /// Both are cut to ``TouchGestures/maximumOutsideTextBytes`` (on a character boundary):
    /// the window chooses them, and they go into every command's environment.
    public init(application: String, title: String) {
        self.application = application.prefix(utf8Bytes: maximumOutsideTextBytes)
        self.title = title.prefix(utf8Bytes: maximumOutsideTextBytes)
        applicationKey = Array(self.application.lowercased())
        titleKey = Array(self.title.lowercased())
    }

    /// `firefox "Mozilla Firefox"`.
    public var description: String { "\(application) \"\(title)\"" }
}

/// A rule's conditions on the focused window: `application`, `title`, `not-application`
/// and `not-title`, each a list of globs.
///
/// Globs match the whole text, ignoring case; `*` is any run of characters, `?` one.
/// A list matches when any of its globs does. Every condition given must hold.
public struct WindowCondition: Hashable, Sendable {
    public var applications: [String] = []
    public var titles: [String] = []
    public var notApplications: [String] = []
    public var notTitles: [String] = []

    public init(applications: [String] = [], titles: [String] = [], notApplications: [String] = [], notTitles: [String] = []) {
        self.applications = applications
        self.titles = titles
        self.notApplications = notApplications
        self.notTitles = notTitles
    }

    /// True when the rule sets no window condition: it fires whatever is focused, and
    /// even when no focus provider runs.
    public var isEmpty: Bool {
        applications.isEmpty && titles.isEmpty && notApplications.isEmpty && notTitles.isEmpty
    }

    /// Whether `window` meets every condition. With no window focused (an empty
    /// workspace) the application and title are empty strings.
    public func matches(_ window: FocusedWindow) -> Bool {
        // The window's text is lowered and split once (``FocusedWindow``), not per glob.
        func any(_ globs: [String], _ text: [Character]) -> Bool {
            globs.contains { globMatches(Array($0.lowercased()), text) }
        }
        return (applications.isEmpty || any(applications, window.applicationKey))
            && (titles.isEmpty || any(titles, window.titleKey))
            && !any(notApplications, window.applicationKey)
            && !any(notTitles, window.titleKey)
    }

    /// How specific the condition is: naming an application counts most, then a title,
    /// then each negation. Of two rules for the same gesture, the one with the higher
    /// number goes first and the other waits for it to fail.
    public var specificity: Int {
        (applications.isEmpty ? 0 : 4) + (titles.isEmpty ? 0 : 2)
            + (notApplications.isEmpty ? 0 : 1) + (notTitles.isEmpty ? 0 : 1)
    }

    /// Whether every window `other` wants, this one wants too, as far as the lists show:
    /// each positive list this condition gives, `other` gives the same; each negation
    /// this one gives, `other` gives too, or names only plain names (no `*`, `?`) that
    /// the negation does not match. Only then is `other` the narrower rule for the same
    /// gesture: `firefox` is narrower than `not-application = "foot"`, but `firefox`
    /// and `imv` are not ordered.
    func covers(_ other: WindowCondition) -> Bool {
        func same(_ mine: [String], _ theirs: [String]) -> Bool { mine.isEmpty || Set(mine) == Set(theirs) }
        func excluded(_ negation: [String], _ otherNegation: [String], _ otherNames: [String]) -> Bool {
            if negation.isEmpty || Set(negation) == Set(otherNegation) { return true }
            return !otherNames.isEmpty && otherNames.allSatisfy { name in
                !name.contains("*") && !name.contains("?")
                    && !negation.contains { globMatches($0.lowercased(), name.lowercased()) }
            }
        }
        return same(applications, other.applications) && same(titles, other.titles)
            && excluded(notApplications, other.notApplications, other.applications)
            && excluded(notTitles, other.notTitles, other.titles)
    }

    /// `application kitty|foot, not-title "*vim*"`: for `check --explain` and the log.
    public var summary: String {
        func list(_ globs: [String]) -> String { globs.map { "\"\($0)\"" }.joined(separator: "|") }
        var parts: [String] = []
        if !applications.isEmpty { parts.append("application \(list(applications))") }
        if !titles.isEmpty { parts.append("title \(list(titles))") }
        if !notApplications.isEmpty { parts.append("not-application \(list(notApplications))") }
        if !notTitles.isEmpty { parts.append("not-title \(list(notTitles))") }
        return parts.joined(separator: ", ")
    }
}
