import TextWire
import TouchgestDaemon

/// What `touchgest debug` shows of the keyboards read for their modifier keys
/// (`modifier-source = "keyboards"`): each keyboard coming and going, and the modifiers held
/// as they change, in the same words and JSON as the desktop's modifiers. Never another key:
/// none reaches the printer.
extension DebugPrinter {
    func keyboard(_ event: KeyboardEvent) {
        guard json else { return emit(event.description.escapingControlCharacters) }
        var line: JSONLine
        switch event {
        case let .added(node, name):
            line = JSONLine("keyboard-added")
            line.add("node", node)
            line.add("name", name)
        case let .removed(node):
            line = JSONLine("keyboard-removed")
            line.add("node", node)
        case let .modifiers(held):
            line = JSONLine("modifiers")
            line.add("held", held.description)
        }
        emit(line.text)
    }
}
