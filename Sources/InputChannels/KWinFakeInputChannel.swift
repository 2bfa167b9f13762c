import Glibc
import InputActions
import PollLoop

/// Keys, text and clicks on KDE Plasma's KWin through `org_kde_kwin_fake_input`, the
/// interface KDE Connect's remote input uses.
///
/// KWin offers it only to programs that ask for it in a desktop file: one whose `Exec`
/// is the program's own path, exactly, with
/// `X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input` (the package installs
/// `/usr/share/applications/touchgest.desktop`; KWin reads it when the session starts).
/// Without it the global is not there and the channel says what to do. Once bound, the
/// channel says why it wants it (`authenticate`, which KWin 5.27 grants) and sends each
/// key as its evdev code (`keyboard_key`, version 4) and each button as its `BTN_` code:
/// KWin runs them through its own keyboard state, so modifiers need no state of ours.
/// Key codes come from a keyboard map built like the virtual keyboard's (``KeyboardMap``).
public final class KWinFakeInputChannel: WaylandChannel {
    /// The object this channel makes after the shared ones.
    enum Made: UInt32 {
        case fakeInput = 4
    }

    static let interface = "org_kde_kwin_fake_input"
    /// `keyboard_key` came in version 4 (Plasma 5.20 and later).
    static let keyboardVersion: UInt32 = 4
    public override var name: String { "KWin fake input at \(socketPath)" }
    private var map: KeyboardMap?

    public override init(display: String, runtimeDirectory: String) {
        super.init(display: display, runtimeDirectory: runtimeDirectory)
    }

    override func bind(_ globals: Globals, on fd: Int32) -> String? {
        guard let global = globals[Self.interface] else {
            return "KWin at \(socketPath) does not offer \(Self.interface) to touchgest: it offers it only to a program named, by its exact path, in a desktop file with X-KDE-Wayland-Interfaces=\(Self.interface) (the package installs /usr/share/applications/touchgest.desktop; log in again after installing it)"
        }
        guard global.version >= Self.keyboardVersion else {
            return "KWin at \(socketPath) offers \(Self.interface) version \(global.version), without keys (version \(Self.keyboardVersion), Plasma 5.20)"
        }
        guard let map = KeyboardMap() else { return "libxkbcommon could not build a keyboard map (is xkb-data installed?)" }
        let requests = Self.bindRequest(global.name, Self.interface, version: Self.keyboardVersion, to: Made.fakeInput.rawValue)
            + Self.message(Made.fakeInput.rawValue, 0, Self.string("touchgest") + Self.string("gestures press the keys, text and buttons their rules name"))
        guard Self.sendAll(fd, requests) else { return "KWin at \(socketPath) took no requests" }
        self.map = map
        return nil
    }

    public override func press(_ action: InputAction) {
        guard isConnected, let map else { return problem("\(name) is not connected") }
        var requests: [UInt8] = []
        switch action {
        case let .button(button):
            // button(button, state): pressed 1, released 0.
            requests += Self.request(Made.fakeInput.rawValue, 2, [UInt32(button.evdev), 1])
            requests += Self.request(Made.fakeInput.rawValue, 2, [UInt32(button.evdev), 0])
        case .keys, .text:
            switch map.strokes(for: action) {
            case let .success(strokes):
                for stroke in strokes {
                    requests += Self.request(Made.fakeInput.rawValue, 10, [stroke.place.key, stroke.pressed ? 1 : 0])
                }
            case let .failure(error):
                return problem(error.description)
            }
        }
        send(requests)
    }
}
