import CXKBCommon
import Glibc
import InputActions

/// A keyboard map built with libxkbcommon from the system's defaults (xkeyboard-config;
/// `XKB_DEFAULT_LAYOUT` and the others where set), for a virtual keyboard: its text, to
/// hand to the compositor, and where each keysym is on it.
struct KeyboardMap {
    /// Where a keysym is: its key code (evdev's here, xkb's minus 8; the X server's for
    /// XTEST) and whether Shift gives it.
    struct Place: Hashable {
        var key: UInt32
        var shifted: Bool
    }

    /// The map as XKB_KEYMAP_FORMAT_TEXT_V1, ending in a NUL as wl_keyboard expects.
    let text: [UInt8]
    let places: [UInt32: Place]
    /// The modifier mask of Shift, Control, Mod1 (Alt) and Mod4 (Super) in this map.
    let masks: [UInt32: UInt32]

    init?() {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        guard let keymap = xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS) else { return nil }
        defer { xkb_keymap_unref(keymap) }
        guard let string = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        text = Array(UnsafeBufferPointer(start: UnsafeRawPointer(string).assumingMemoryBound(to: UInt8.self), count: strlen(string) + 1))
        free(string)
        var places: [UInt32: Place] = [:]
        let first = xkb_keymap_min_keycode(keymap)
        let last = xkb_keymap_max_keycode(keymap)
        // Unshifted levels first, so a keysym on both is pressed without Shift.
        for level in 0..<2 as Range<UInt32> {
            for keycode in first...last where keycode >= 8 {
                var syms: UnsafePointer<xkb_keysym_t>?
                let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, 0, level, &syms)
                guard count > 0, let syms else { continue }
                for index in 0..<Int(count) where places[syms[index]] == nil {
                    places[syms[index]] = Place(key: keycode - 8, shifted: level == 1)
                }
            }
        }
        self.places = places
        var masks: [UInt32: UInt32] = [:]
        for (keysym, name) in [(0xFFE1 as UInt32, "Shift"), (0xFFE3, "Control"), (0xFFE9, "Mod1"), (0xFFEB, "Mod4")] {
            let index = xkb_keymap_mod_get_index(keymap, name)
            if index != XKB_MOD_INVALID { masks[keysym] = 1 << index }
        }
        self.masks = masks
    }

    /// Why `shortcut` does nothing on a desktop other than KDE Plasma.
    static func shortcutElsewhere(_ name: String) -> String {
        "shortcut \"\(name)\" names a global shortcut of KDE Plasma, which this desktop is not: give its keys instead"
    }

    /// A desktop action goes through the desktop's own interface, never as keys: said
    /// where touchgest does not speak that interface.
    static func actionElsewhere(_ action: DesktopAction) -> String {
        "action \(action) needs the desktop's own interface, which touchgest does not speak on this desktop yet (it does on GNOME with its extension, KDE Plasma, sway, i3, Hyprland, niri and X11): give keys or a command instead"
    }

    /// One key going down or up, and the keysym it is pressed for.
    struct Stroke: Hashable {
        var keysym: UInt32
        var place: Place
        var pressed: Bool
    }

    /// Why `action` cannot be pressed on this map (``check(_:on:named:)``); nil when it can.
    func check(_ action: InputAction) -> InputActionError? {
        Self.check(action, on: places, named: "the keyboard map")
    }

    /// Why `action` cannot be pressed on a map that puts keysyms at `places`; nil when it
    /// can. A text is checked without making its strokes.
    static func check(_ action: InputAction, on places: [UInt32: Place], named map: String) -> InputActionError? {
        if case let .text(text) = action { return untypable(text, on: places, named: map) }
        if case let .failure(error) = strokes(for: action, on: places, named: map) { return error }
        return nil
    }

    /// The keys `action` presses on this map, in order (``strokes(for:on:named:)``).
    func strokes(for action: InputAction) -> Result<[Stroke], InputActionError> {
        Self.strokes(for: action, on: places, named: "the keyboard map")
    }

    /// Why `text` cannot be typed on a map that puts keysyms at `places`, naming its first
    /// character the map lacks; nil when it can. Nothing is made, so a channel checks a
    /// long text whole before it encodes it a piece at a time.
    static func untypable(_ text: String, on places: [UInt32: Place], named map: String) -> InputActionError? {
        for scalar in text.unicodeScalars where places[Keysym.typing(scalar)] == nil {
            return InputActionError("no key of \(map) types '\(scalar)' (U+\(String(scalar.value, radix: 16, uppercase: true)))")
        }
        return nil
    }

    /// The keys `action` presses on a map that puts keysyms at `places` (the X server's,
    /// read by XTEST, or one built here), in order: each chord's keys down in order and
    /// up in reverse; each character of text with Shift around it where the character
    /// is on the shifted level. Or why it cannot, naming the keysym or character the map
    /// (`map`, for the message) lacks. A button presses no key.
    static func strokes(for action: InputAction, on places: [UInt32: Place], named map: String) -> Result<[Stroke], InputActionError> {
        var strokes: [Stroke] = []
        switch action {
        case let .keys(chords):
            for chord in chords {
                var down: [Stroke] = []
                for keysym in chord.keysyms {
                    guard let place = places[keysym] else {
                        return .failure(InputActionError("no key of \(map) gives \(Keysym.shown(keysym)) (in \(chord))"))
                    }
                    down.append(Stroke(keysym: keysym, place: place, pressed: true))
                }
                strokes += down + down.reversed().map { Stroke(keysym: $0.keysym, place: $0.place, pressed: false) }
            }
        case let .text(text):
            if let missing = untypable(text, on: places, named: map) { return .failure(missing) }
            let shift = places[Modifier.shift.keysym]
            for scalar in text.unicodeScalars {
                let keysym = Keysym.typing(scalar)
                guard let place = places[keysym] else { continue }
                let shifted = place.shifted ? shift : nil
                if let shifted { strokes.append(Stroke(keysym: Modifier.shift.keysym, place: shifted, pressed: true)) }
                strokes += [Stroke(keysym: keysym, place: place, pressed: true), Stroke(keysym: keysym, place: place, pressed: false)]
                if let shifted { strokes.append(Stroke(keysym: Modifier.shift.keysym, place: shifted, pressed: false)) }
            }
        case .button:
            break
        case let .shortcut(name):
            return .failure(InputActionError(Self.shortcutElsewhere(name)))
        case let .desktop(action):
            return .failure(InputActionError(Self.actionElsewhere(action)))
        }
        return .success(strokes)
    }
}
