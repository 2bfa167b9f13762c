import InputActions

/// Where a rule names a desktop action (`action = "overview"`), to say it there when the
/// desktop lacks it.
public struct ActionPlace: Hashable, Sendable {
    public var rule: String
    public var action: DesktopAction
    /// 1-based line and column of the value.
    public var line: Int
    public var column: Int
}

/// Where a rule gives a key's value.
public struct RulePlace: Hashable, Sendable {
    public var rule: String
    /// 1-based line and column of the value.
    public var line: Int
    public var column: Int
}

extension Rulebook {
    /// An error at each `modifiers` where nothing can tell what is held (`modifiers` says why; nil where
    /// something can): such a rule would never fire, so it is refused, not left silent; the
    /// error names the opt-in that reads them from the keyboards. And at each `buttons`
    /// whose gesture can never begin with a button held, an error; one that can only on
    /// some pads, a warning (``Rule/buttonsProblem``).
    public func heldProblems(modifiers: String?) -> [Diagnostic] {
        func problems(_ places: [RulePlace], _ what: String, _ why: String?, _ remedy: String) -> [Diagnostic] {
            guard let why else { return [] }
            return places.map {
                Diagnostic(file: file, line: $0.line, column: $0.column, severity: .error,
                           message: "rule '\($0.rule)' wants \(what) held, but \(why): it would never fire; \(remedy)")
            }
        }
        let modifierRemedy = "remove modifiers, give the rule another gesture, or read them from the keyboards with modifier-source = "
            + "\"keyboards\" in [settings] (touchgest doctor says what that needs)"
        let buttons = buttonPlaces.compactMap { place -> Diagnostic? in
            guard let problem = rules.first(where: { $0.name == place.rule })?.buttonsProblem else { return nil }
            return Diagnostic(file: file, line: place.line, column: place.column, severity: problem.severity, message: problem.text)
        }
        return (problems(modifierPlaces, "modifiers", modifiers, modifierRemedy) + buttons).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }

    /// A warning at each action the desktop lacks: `lacks` says why it cannot be done
    /// (`sway has no overview`), nil when it can. The rules load all the same; the
    /// action is then said once in the log when it would be done, and nothing else happens.
    public func actionWarnings(_ lacks: (DesktopAction) -> String?) -> [Diagnostic] {
        actionPlaces.compactMap { place in
            lacks(place.action).map {
                Diagnostic(file: file, line: place.line, column: place.column, severity: .warning,
                           message: "\($0): rule '\(place.rule)' does nothing here")
            }
        }
    }
}
