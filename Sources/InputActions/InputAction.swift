import CXKBCommon

/// What a rule can do besides running a command: press keys, type text, click a button.
/// Written by the daemon itself through the desktop's own channel (``InputChannel``),
/// with no helper tool started per gesture.
public enum InputAction: Hashable, Sendable, CustomStringConvertible {
    /// Chords pressed one after the other: `ctrl+shift+v`, `ctrl+c ctrl+v`.
    case keys([KeyChord])
    /// Text typed as it is, character by character.
    case text(String)
    /// A click of a pointer button.
    case button(PointerButton)
    /// A global shortcut of KDE Plasma's, by its name (`Overview`, `Switch to Next
    /// Desktop`), invoked as if its keys were pressed.
    case shortcut(String)
    /// A desktop action by name (``DesktopAction``), through the desktop's own interface.
    case desktop(DesktopAction)

    /// `keys ctrl+shift+v`, `text "hi"`, `button middle`: as `debug` and `replay` show it.
    public var description: String {
        switch self {
        case let .keys(chords): "keys \(chords.map(\.description).joined(separator: " "))"
        case let .text(text): "text \"\(text)\""
        case let .button(button): "button \(button.rawValue)"
        case let .shortcut(name): "shortcut \(name)"
        case let .desktop(action): "action \(action)"
        }
    }

    /// The rule keys that give an input action, and what each value is.
    public static let keyNames = ["keys", "text", "button", "shortcut", "action"]

    /// The action a rule key gives: `keys`, `text`, `button`, `shortcut` or `action` with its value; throws
    /// with a message that names the value when it is not one.
    public static func parse(key: String, value: String) throws(InputActionError) -> InputAction {
        switch key {
        case "keys": return .keys(try KeyChord.sequence(value))
        case "text":
            guard !value.isEmpty else { throw InputActionError("text is empty; give the text to type") }
            // xkb gives NUL, ESC, DEL and the C1 controls keysyms too: typed, they would
            // press Escape or Delete, or send a code no application means as text.
            if let scalar = value.unicodeScalars.first(where: { $0.properties.generalCategory == .control && $0 != "\t" && $0 != "\n" }) {
                throw InputActionError("text holds the control character \(scalar.codePoint); the only control characters text types are tab and newline")
            }
            if let scalar = value.unicodeScalars.first(where: { Keysym.typing($0) == 0 }) {
                throw InputActionError("text holds \(scalar.codePoint), which no key types")
            }
            return .text(value)
        case "button":
            guard let button = PointerButton(rawValue: value.lowercased()) else {
                throw InputActionError("unknown button '\(value)'; expected one of \(PointerButton.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .button(button)
        case "shortcut":
            guard !value.allSatisfy(\.isWhitespace) else {
                throw InputActionError("shortcut is empty; give the name of a KDE Plasma global shortcut, such as \"Overview\"")
            }
            if let scalar = value.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                throw InputActionError("shortcut holds the control character \(scalar.codePoint)")
            }
            return .shortcut(value)
        case "action":
            return .desktop(try DesktopAction.named(value))
        default:
            throw InputActionError("\(key) is not an input action; expected one of \(keyNames.joined(separator: ", "))")
        }
    }
}

/// Why a key, text or button cannot be read.
public struct InputActionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A pointer button, by the name a user writes.
public enum PointerButton: String, CaseIterable, Hashable, Sendable {
    case left, middle, right, back, forward

    /// The core X11 button number (4 to 7 are the wheel).
    public var x11: UInt8 {
        switch self {
        case .left: 1
        case .middle: 2
        case .right: 3
        case .back: 8
        case .forward: 9
        }
    }

    /// The kernel's code (`BTN_LEFT` ... in linux/input-event-codes.h).
    public var evdev: UInt16 {
        switch self {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        case .back: 0x116
        case .forward: 0x115
        }
    }
}

/// A modifier, by the names people use for it.
public enum Modifier: String, CaseIterable, Hashable, Sendable {
    case ctrl, shift, alt, `super`

    /// Other names for the same key.
    static let aliases: [String: Modifier] = [
        "ctrl": .ctrl, "control": .ctrl, "shift": .shift, "alt": .alt,
        "super": .super, "logo": .super, "meta": .super, "win": .super,
    ]

    /// The left one's keysym, which every keyboard map has.
    public var keysym: UInt32 {
        switch self {
        case .ctrl: 0xFFE3 // Control_L
        case .shift: 0xFFE1 // Shift_L
        case .alt: 0xFFE9 // Alt_L
        case .super: 0xFFEB // Super_L
        }
    }
}

/// A key by its xkb keysym name (`v`, `Return`, `XF86AudioRaiseVolume`): names, not the
/// characters a layout puts on them, so a rule means the same key on every layout.
public struct Key: Hashable, Sendable, CustomStringConvertible {
    /// The name as xkb spells it.
    public let name: String
    public let keysym: UInt32

    /// The key `name` names, in any case (`return`, `Return`); nil for no key.
    public init?(named name: String) {
        var keysym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        if keysym == 0 { keysym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE) }
        guard keysym != 0, let name = Keysym.name(keysym) else { return nil }
        self.name = name
        self.keysym = keysym
    }

    public var description: String { name }
}

/// Modifiers held while one key is pressed: `ctrl+shift+v`. A chord of modifiers alone
/// (`super`) presses and releases them.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    public var modifiers: [Modifier]
    /// Nil: the chord is its modifiers alone.
    public var key: Key?

    public init(modifiers: [Modifier], key: Key?) {
        self.modifiers = modifiers
        self.key = key
    }

    public var description: String {
        (modifiers.map(\.rawValue) + (key.map { [$0.name] } ?? [])).joined(separator: "+")
    }

    /// The keysyms pressed in order (modifiers first), then released in reverse.
    public var keysyms: [UInt32] { modifiers.map(\.keysym) + (key.map { [$0.keysym] } ?? []) }

    /// `ctrl+shift+v ctrl+c`: chords separated by spaces, keys in a chord by `+` (the
    /// plus key itself is `plus`).
    public static func sequence(_ text: String) throws(InputActionError) -> [KeyChord] {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { throw InputActionError("keys is empty; give a chord such as \"ctrl+shift+v\"") }
        var chords: [KeyChord] = []
        for word in words { chords.append(try chord(String(word))) }
        return chords
    }

    static func chord(_ word: String) throws(InputActionError) -> KeyChord {
        var modifiers: [Modifier] = []
        var key: Key?
        for part in word.split(separator: "+", omittingEmptySubsequences: false) {
            let name = String(part)
            guard !name.isEmpty else {
                throw InputActionError("'\(word)' has an empty key between its '+'s (the plus key is written plus)")
            }
            if let modifier = Modifier.aliases[name.lowercased()] {
                guard !modifiers.contains(modifier) else { throw InputActionError("'\(word)' holds \(modifier.rawValue) twice") }
                guard key == nil else { throw InputActionError("'\(word)' puts \(name) after its key; write the modifiers first") }
                modifiers.append(modifier)
                continue
            }
            guard let found = Key(named: name) else {
                throw InputActionError("unknown key name '\(name)' in '\(word)'; keys are xkb names, such as v, Return, Left, F5, plus or XF86AudioRaiseVolume")
            }
            guard key == nil else {
                throw InputActionError("'\(word)' presses two keys, \(key!.name) and \(found.name), at once; a chord is modifiers and one key (for one after the other, separate them with a space)")
            }
            key = found
        }
        return KeyChord(modifiers: modifiers, key: key)
    }
}

/// xkb keysyms: what a character types, and a keysym's name. One place for the input
/// actions' checks and every channel that presses them.
public enum Keysym {
    /// The keysym that types `scalar` (xkb's table of Unicode and legacy keysyms; a line
    /// feed is Return, a tab Tab); 0 for none.
    public static func typing(_ scalar: Unicode.Scalar) -> UInt32 {
        switch scalar {
        case "\n": 0xFF0D // Return
        case "\t": 0xFF09 // Tab
        default: xkb_utf32_to_keysym(scalar.value)
        }
    }

    /// xkb's name of `keysym`; nil for a value that is no keysym.
    public static func name(_ keysym: UInt32) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        guard xkb_keysym_get_name(keysym, &buffer, buffer.count) > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The name, or the value in hex where it has none: for messages.
    public static func shown(_ keysym: UInt32) -> String {
        name(keysym) ?? "0x" + String(keysym, radix: 16)
    }
}

extension Unicode.Scalar {
    /// `U+001B`, `U+202E`: the scalar as messages name it, at least four hex digits.
    public var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
