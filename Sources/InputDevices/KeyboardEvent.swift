import TouchGestures

/// What the adapter says of the keyboards it reads for their modifier keys
/// (`modifier-source = "keyboards"`): never which other key was pressed.
public enum KeyboardEvent: Sendable, Hashable {
    /// A keyboard is read for its modifier keys from now on.
    case added(node: String, name: String)
    /// A keyboard went away; the keys it held are held no more.
    case removed(node: String)
    /// The modifier keys held on all keyboards together changed.
    case modifiers(KeyModifierFlags)
}

extension KeyboardEvent: CustomStringConvertible {
    /// The one line the log of `touchgest run` and the text of `touchgest debug` give the
    /// event: `keyboard added: /dev/input/event3 "AT Keyboard" (its modifier keys only)`,
    /// `keyboard removed: /dev/input/event3`, `modifiers: ctrl+super`.
    public var description: String {
        switch self {
        case let .added(node, name): "keyboard added: \(node) \"\(name)\" (its modifier keys only)"
        case let .removed(node): "keyboard removed: \(node)"
        case let .modifiers(held): "modifiers: \(held)"
        }
    }
}
