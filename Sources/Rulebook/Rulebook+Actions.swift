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

extension Rulebook {
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
