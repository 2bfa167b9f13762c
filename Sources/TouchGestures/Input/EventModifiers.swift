/// The modifier keys held when an event happened: UIKit's `UIKeyModifierFlags`, with the
/// names it gives them. Where the state comes from (the desktop, or keyboards) is the input
/// adapter's business; the engine only carries it.
public struct KeyModifierFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Caps Lock is on.
    public static let alphaShift = KeyModifierFlags(rawValue: 1 << 0)
    public static let shift = KeyModifierFlags(rawValue: 1 << 1)
    public static let control = KeyModifierFlags(rawValue: 1 << 2)
    /// Alt (Option on Apple's keyboards).
    public static let alternate = KeyModifierFlags(rawValue: 1 << 3)
    /// Super, the Logo key (Command on Apple's keyboards).
    public static let command = KeyModifierFlags(rawValue: 1 << 4)
    // UIKit's `numericPad` says a key event came from the keypad; no gesture has that.

    /// Every flag, in the order ``description`` names them.
    public static let named: [(flag: KeyModifierFlags, name: String)] = [
        (.alphaShift, "capslock"), (.shift, "shift"), (.control, "ctrl"), (.alternate, "alt"), (.command, "super"),
    ]

    /// `ctrl+shift`, `super`, or `none`: the names rule files use.
    public var description: String {
        let names = Self.named.filter { contains($0.flag) }.map(\.name)
        return names.isEmpty ? "none" : names.joined(separator: "+")
    }

    /// The flags ``description`` names (`ctrl+shift`, `none`); nil for any other text.
    public init?(_ description: some StringProtocol) {
        self = []
        guard description != "none" else { return }
        for name in description.split(separator: "+", omittingEmptySubsequences: false) {
            guard let flag = Self.named.first(where: { $0.name == name })?.flag, !contains(flag) else { return nil }
            insert(flag)
        }
    }
}

/// The buttons held when an event happened: UIKit's `UIEventButtonMask`. Button 1 is the
/// primary (left) button, 2 the secondary (right), 3 the middle one.
public struct EventButtonMask: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static let primary = EventButtonMask(rawValue: 1 << 0)
    public static let secondary = EventButtonMask(rawValue: 1 << 1)

    /// Button `number` (1-based), as UIKit's `UIEventButtonMaskForButtonNumber`; nil for a
    /// number the mask cannot hold (below 1, above 32).
    public static func button(_ number: Int) -> EventButtonMask? {
        guard (1...32).contains(number) else { return nil }
        return EventButtonMask(rawValue: 1 << UInt32(number - 1))
    }

    /// `1+3`, `2`, or `none`: the button numbers held.
    public var description: String {
        let numbers = (0..<32).filter { rawValue & (1 << UInt32($0)) != 0 }.map { String($0 + 1) }
        return numbers.isEmpty ? "none" : numbers.joined(separator: "+")
    }

    /// The buttons ``description`` names (`1+3`, `none`); nil for any other text.
    public init?(_ description: some StringProtocol) {
        self = []
        guard description != "none" else { return }
        for word in description.split(separator: "+", omittingEmptySubsequences: false) {
            guard word.allSatisfy(\.isASCII), word.first != "0", let number = Int(word), let button = Self.button(number),
                  !contains(button) else { return nil }
            insert(button)
        }
    }
}
