import BusLoop
import TouchGestures

/// What GNOME Shell says of touchgest's extension: `org.gnome.Shell.Extensions`
/// `GetExtensionInfo(uuid) -> a{sv}` and the signal `ExtensionStateChanged(s uuid, a{sv})`,
/// the same on GNOME 42 to 50. The dictionary holds the extension's metadata.json strings
/// and numbers (not its lists: `shell-version` is left out), `state`, `path` and `error`;
/// it is empty when the shell has no extension of that uuid.
public struct GnomeExtension: Hashable, Sendable {
    /// The extension's state, as GNOME Shell numbers it (`ExtensionState` in
    /// js/misc/extensionUtils.js; 46 renamed DISABLED to INACTIVE and added the moving states).
    public enum State: Hashable, Sendable {
        /// The shell has no extension of this uuid (an empty dictionary).
        case missing
        /// 1: enabled and running.
        case enabled
        /// 2 (DISABLED, INACTIVE) or 6 (INITIALIZED): loaded, not enabled.
        case disabled
        /// 3: it threw when loaded or enabled.
        case error
        /// 4: metadata.json does not name this shell's major version.
        case outOfDate
        /// 5, 7, 8 (downloading, disabling, enabling): about to be another state.
        case moving
        /// Any other number (99: uninstalled).
        case other(Int)
    }

    /// The uuid of touchgest's extension.
    public static let uuid = DBusFocusNames.gnomeExtension
    /// The folders under share/touchgest/gnome-shell/ that hold each flavour, and the
    /// GNOME Shell major versions each names in its metadata.json.
    public static let flavours: [(folder: String, versions: ClosedRange<Int>)] = [("42-44", 42...44), ("45-50", 45...50)]
    /// The command that enables it.
    public static let enableCommand = "gnome-extensions enable \(uuid)"

    public var state: State
    /// Where the shell found it, when it did.
    public var path: String
    /// What the shell says went wrong (state error).
    public var error: String

    /// Reads `GetExtensionInfo`'s (or `ExtensionStateChanged`'s) dictionary.
    public init(_ info: BusValue) {
        let entries = info.properties
        path = entries["path"]?.text ?? ""
        error = entries["error"]?.text ?? ""
        guard !entries.isEmpty else {
            state = .missing
            return
        }
        switch entries["state"]?.number.map(Int.init) {
        case 1?: state = .enabled
        case 2?, 6?: state = .disabled
        case 3?: state = .error
        case 4?: state = .outOfDate
        case 5?, 7?, 8?: state = .moving
        case let number?: state = .other(number)
        case nil: state = .missing
        }
    }

    /// The modifier keys in the extension's `ModifiersChanged(u mask)`: Clutter's mask
    /// (`ClutterModifierType`). Mutter's Wayland backend fills it with xkb's effective
    /// modifiers by index, where every standard keymap puts Shift at bit 0, Lock (Caps Lock)
    /// at 1, Control at 2, Alt at Mod1 (bit 3) and Super at Mod4 (bit 6): GNOME Shell 43.9
    /// shows Super_L as 0x40, never as Clutter's own Super bit (26), which is taken too.
    public static func modifiers(_ mask: UInt32) -> KeyModifierFlags {
        let map: [(bit: UInt32, flag: KeyModifierFlags)] = [
            (1 << 0, .shift), (1 << 1, .alphaShift), (1 << 2, .control), (1 << 3, .alternate), (1 << 6, .command), (1 << 26, .command),
        ]
        return map.reduce(into: KeyModifierFlags()) { held, entry in if mask & entry.bit != 0 { held.insert(entry.flag) } }
    }

    /// Why the extension does not tell the modifiers when it has no `WatchModifiers`: it is
    /// older than this touchgest.
    public static let tooOldForModifiers = "the extension \(uuid) in GNOME Shell is older than this touchgest and cannot tell the "
        + "modifier keys held, so rules with modifiers do not fire: update it (make install, or the touchgest package), then log out and in"

    /// The flavour folder written for GNOME Shell `major`, if any.
    public static func flavour(for major: Int) -> String? {
        flavours.first { $0.versions.contains(major) }?.folder
    }

    /// Why GNOME Shell does not run it, with the command that fixes it; nil when enabled or
    /// about to change.
    public var problem: String? {
        switch state {
        case .enabled, .moving:
            return nil
        case .missing:
            return "GNOME Shell has no extension \(Self.uuid): install it (make install, or the touchgest package), "
                + "log out and in, then: \(Self.enableCommand)"
        case .disabled:
            return "the extension \(Self.uuid) is disabled: \(Self.enableCommand)"
        case .error:
            return "the extension \(Self.uuid) failed in GNOME Shell\(error.isEmpty ? "" : ": \(error)"); "
                + "see journalctl --user -b /usr/bin/gnome-shell"
        case .outOfDate:
            return "GNOME Shell refused the extension \(Self.uuid)\(path.isEmpty ? "" : " at \(path)"): "
                + "its metadata.json does not name this GNOME Shell version; install the flavour for it (touchgest doctor says which)"
        case let .other(number):
            return "the extension \(Self.uuid) is in state \(number): \(Self.enableCommand)"
        }
    }
}
