/// What a desktop does by name, carried out through its own interface (its IPC, its
/// D-Bus, EWMH), never by guessing which keys it binds: `action = "workspace-next"` reads
/// the same on every desktop. A desktop that lacks one says so (``InputChannel``'s check).
public enum DesktopAction: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The next and previous workspace, in the desktop's own order.
    case workspaceNext = "workspace-next", workspacePrevious = "workspace-previous"
    /// The workspace above, below, to the left or right, where workspaces lie in a grid
    /// (or a row, or a column: the other two do nothing there).
    case workspaceUp = "workspace-up", workspaceDown = "workspace-down"
    case workspaceLeft = "workspace-left", workspaceRight = "workspace-right"
    /// The desktop's overview of windows and workspaces.
    case overview
    /// The desktop's application launcher: GNOME's app grid.
    case appGrid = "app-grid"
    /// Shows the desktop, hiding every window; again, brings them back.
    case showDesktop = "show-desktop"
    /// The focused window: closed (as its close button would), maximized or restored,
    /// minimized, full screen or back.
    case closeWindow = "close-window", maximize, minimize, fullscreen

    public var description: String { rawValue }

    /// `unknown action 'X'; expected one of ...`, for the rule key `action`.
    static func named(_ name: String) throws(InputActionError) -> DesktopAction {
        guard let action = DesktopAction(rawValue: name) else {
            throw InputActionError("unknown action '\(name)'; expected one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return action
    }
}
