import BusLoop
import Glibc
import InputActions
import PollLoop
import TouchGestures

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
///
/// A `shortcut` goes to KDE's global shortcuts on the session bus (`org.kde.kglobalaccel`,
/// component `kwin`): its names are asked for first, so that a name KWin does not have
/// is said, then `invokeShortcut` runs it as if its keys were pressed.
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
    /// The session bus, for KDE's global shortcuts.
    private let bus: BusLink

    static let shortcutService = "org.kde.kglobalaccel"
    static let shortcutComponent = "/component/kwin"
    static let shortcutInterface = "org.kde.kglobalaccel.Component"

    /// `sessionBus`: the session bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    public init(display: String, runtimeDirectory: String, sessionBus: String) {
        bus = BusLink(name: "session bus", address: sessionBus, matchRules: [])
        super.init(display: display, runtimeDirectory: runtimeDirectory)
    }

    public override func start() {
        super.start()
        bus.start()
    }

    // MARK: PollSource: the Wayland socket and the session bus

    public override func collect(_ interest: inout PollInterest) {
        super.collect(&interest)
        bus.collect(&interest)
    }

    public override func handleReadable(_ fd: Int32) {
        if bus.owns(fd) { bus.handleReadable() } else { super.handleReadable(fd) }
    }

    public override var nextDeadline: Timestamp? {
        [super.nextDeadline, bus.deadline].compactMap { $0 }.min()
    }

    public override func handleDeadlines() {
        super.handleDeadlines()
        bus.handleDeadlines()
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
        guard UnixSocket.sendAll(fd, requests) else { return "KWin at \(socketPath) took no requests" }
        self.map = map
        return nil
    }

    public override func press(_ action: InputAction) {
        switch action {
        case let .shortcut(shortcut): invoke(shortcut)
        case let .desktop(desktop):
            guard let shortcut = Self.shortcut(for: desktop) else {
                return problem("KDE Plasma has no \(desktop) that touchgest can reach")
            }
            invoke(shortcut)
        case .keys, .text, .button: super.press(action)
        }
    }

    /// The global shortcut of KWin's (component `kwin`) that does `action`, by its internal
    /// name, which stays the same whatever keys the user binds to it (read from KWin 5.27's
    /// `shortcutNames`). KWin has no application launcher of its own: Plasma's is
    /// plasmashell's, which is not KWin's to run.
    static func shortcut(for action: DesktopAction) -> String? {
        switch action {
        case .workspaceNext: "Switch to Next Desktop"
        case .workspacePrevious: "Switch to Previous Desktop"
        case .workspaceUp: "Switch One Desktop Up"
        case .workspaceDown: "Switch One Desktop Down"
        case .workspaceLeft: "Switch One Desktop to the Left"
        case .workspaceRight: "Switch One Desktop to the Right"
        case .overview: "Overview"
        case .showDesktop: "Show Desktop"
        case .closeWindow: "Window Close"
        case .maximize: "Window Maximize"
        case .minimize: "Window Minimize"
        case .fullscreen: "Window Fullscreen"
        case .appGrid: nil
        }
    }

    override func check(_ action: InputAction) -> String? {
        guard let map else { return "\(name) is not connected" }
        return map.check(action)?.description
    }

    override func encode(_ piece: InputAction) -> [UInt8] {
        var requests: [UInt8] = []
        switch piece {
        case let .button(button):
            // button(button, state): pressed 1, released 0.
            requests += Self.request(Made.fakeInput.rawValue, 2, [UInt32(button.evdev), 1])
            requests += Self.request(Made.fakeInput.rawValue, 2, [UInt32(button.evdev), 0])
        case .keys, .text, .shortcut, .desktop:
            guard let map, case let .success(strokes) = map.strokes(for: piece) else { return [] }
            for stroke in strokes {
                requests += Self.request(Made.fakeInput.rawValue, 10, [stroke.place.key, stroke.pressed ? 1 : 0])
            }
        }
        return requests
    }

    /// Runs KWin's global shortcut `shortcut`, or says why it cannot.
    private func invoke(_ shortcut: String) {
        guard bus.isConnected else {
            return problem("shortcut \"\(shortcut)\" needs KDE's global shortcuts on the session bus, which is not connected")
        }
        bus.call(Self.shortcutService, Self.shortcutComponent, Self.shortcutInterface, "shortcutNames") { [weak self] answer in
            guard let self else { return }
            switch answer {
            case let .failure(error):
                problem("KDE's global shortcuts (\(Self.shortcutService)) did not answer: \(error)")
            case let .success(values):
                let names = values.first?.strings ?? []
                guard names.contains(shortcut) else {
                    return problem("KWin has no global shortcut named \"\(shortcut)\" (qdbus \(Self.shortcutService) \(Self.shortcutComponent) shortcutNames lists them)")
                }
                bus.call(Self.shortcutService, Self.shortcutComponent, Self.shortcutInterface, "invokeShortcut", [.string(shortcut)]) { [weak self] done in
                    if case let .failure(error) = done { self?.problem("KWin did not run the shortcut \"\(shortcut)\": \(error)") }
                }
            }
        }
    }
}
