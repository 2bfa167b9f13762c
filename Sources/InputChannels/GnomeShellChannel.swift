import BusLoop
import Glibc
import InputActions
import PollLoop
import TextWire
import TouchGestures

/// Keys, text, clicks and desktop actions on GNOME Shell through touchgest's own
/// extension (`org.touchgest.Input` at `/org/touchgest/Input`, in the shell's name on the
/// session bus): the shell's own virtual keyboard and pointer, and its own overview,
/// app grid, workspaces and window calls. No /dev/uinput and no udev rule.
///
/// The extension takes calls only from a program its `trusted-programs` names (the
/// installed touchgest) and never while the screen is locked (docs/input-actions.md says
/// what that does not cover). Keys go as keysyms, pressed and released: the shell picks the
/// keycode and the level's modifiers from its own keymap. A text goes in pieces of at most
/// ``strokesPerCall`` strokes, calls one after the other on one connection, which the bus
/// and the extension keep in order.
///
/// Without the extension (not installed, disabled), each press goes to `fallback`, the
/// uinput channel, when /dev/uinput is writable; else it is said, with what to do.
public final class GnomeShellChannel: DesktopGestureChannel {
    static let path = "/org/touchgest/Input"
    static let interface = "org.touchgest.Input"
    /// Strokes in one `Keys` call (the extension takes at most 4,096).
    static let strokesPerCall = 1_024

    private let bus: BusLink
    private let fallback: UinputChannel?
    /// The fallback was opened: at the first press the extension did not take.
    private var fallbackOpened = false
    /// Calls sent and not yet answered (``InputChannelDefaults/maximumWaitingPresses``).
    private var waitingCalls = 0
    private var lastProblem: String?
    /// The numbers of fingers whose swipes the shell leaves to touchgest, as last asked.
    private var yielded: Set<Int> = []
    /// `Follow` calls sent and not yet answered, and the newest update that waits for
    /// their answers (the only one that still matters).
    private var followCalls = 0
    private var waitingUpdate: AnimationStep?
    public var onReport: ((InputChannelReport) -> Void)?
    public var name: String { "GNOME Shell's own keyboard and pointer, through touchgest's extension" }

    /// `sessionBus`: the session bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    public init(sessionBus: String, fallback: UinputChannel?) {
        bus = BusLink(name: "session bus", address: sessionBus, matchRules: [])
        self.fallback = fallback
        bus.onConnected = { [unowned self] in
            lastProblem = nil
            probe()
            // A new connection is a new name: the extension gave back what the old one held.
            if !yielded.isEmpty { sendYield() }
        }
        bus.onLost = { [unowned self] why, _, _ in
            // BusLink drops the calls of a lost connection unanswered: none waits now.
            waitingCalls = 0
            followCalls = 0
            waitingUpdate = nil
            onReport?(.lost("the session bus: \(why)"))
        }
    }

    public func start() {
        bus.start()
    }

    public func press(_ action: InputAction) {
        let calls: [(member: String, argument: BusArgument)]
        switch action {
        case let .desktop(desktopAction):
            guard Self.actions.contains(desktopAction) else { return problem("GNOME Shell has no \(desktopAction)") }
            calls = [("Do", .string(desktopAction.rawValue))]
        case let .button(button): calls = [("Button", .uint32(UInt32(button.x11)))]
        case .keys, .text: calls = Self.strokes(of: action).map { ("Keys", .string($0)) }
        case let .shortcut(name): return problem(KeyboardMap.shortcutElsewhere(name))
        }
        guard bus.isConnected else { return problem("\(name): the session bus is not connected") }
        guard waitingCalls + calls.count <= InputChannelDefaults.maximumWaitingPresses else {
            return problem("GNOME Shell is behind: \(InputChannelDefaults.maximumWaitingPresses) calls wait for its answer, and more are dropped")
        }
        var fellBack = false
        for call in calls {
            waitingCalls += 1
            bus.call("org.gnome.Shell", Self.path, Self.interface, call.member, [call.argument]) { [weak self] result in
                guard let self else { return }
                waitingCalls -= 1
                guard case let .failure(error) = result else { return }
                if Self.isAbsent(error) {
                    // Once per press, not once per piece of a text.
                    guard !fellBack else { return }
                    fellBack = true
                    if let fallback {
                        openFallback(fallback)
                        return fallback.press(action)
                    }
                    return problem(Self.absence(error))
                }
                problem("GNOME Shell refused \(action): \(error.message.prefix(utf8Bytes: maximumOutsideTextBytes))")
            }
        }
    }

    public func yieldGestures(fingers: Set<Int>) {
        guard fingers != yielded else { return }
        yielded = fingers
        sendYield()
    }

    /// Tells the extension which swipes of the shell to hold back; refused only when it
    /// is absent or does not trust this touchgest, which the probe says already.
    private func sendYield() {
        guard bus.isConnected else { return }
        let fingers = yielded.sorted().map { UInt32(clamping: $0) }
        bus.call("org.gnome.Shell", Self.path, Self.interface, "YieldGestures", [.uint32s(fingers)]) { [weak self] result in
            guard let self, case let .failure(error) = result else { return }
            problem(Self.isAbsent(error) ? Self.absence(error)
                    : "GNOME Shell kept its own swipes: \(error.message.prefix(utf8Bytes: maximumOutsideTextBytes))")
        }
    }

    public func follow(_ step: AnimationStep) {
        guard bus.isConnected else { return problem("\(name): the session bus is not connected") }
        if step.phase == .update && followCalls > 0 {
            waitingUpdate = step
            return
        }
        // A begin, an end or a cancel goes at once, in order on the one connection; an
        // end carries where the fingers lifted, so an update still waiting is moot.
        waitingUpdate = nil
        sendFollow(step)
    }

    private func sendFollow(_ step: AnimationStep) {
        followCalls += 1
        let arguments: [BusArgument] = [.string(step.animation.rawValue), .string(step.phase.rawValue),
                                         .double(step.progress.isFinite ? step.progress : 0), .uint32(step.milliseconds)]
        bus.call("org.gnome.Shell", Self.path, Self.interface, "Follow", arguments) { [weak self] result in
            guard let self else { return }
            followCalls = max(0, followCalls - 1)
            if case let .failure(error) = result {
                problem(Self.isAbsent(error) ? Self.absence(error)
                        : "GNOME Shell did not follow: \(error.message.prefix(utf8Bytes: maximumOutsideTextBytes))")
            }
            if followCalls == 0, let next = waitingUpdate {
                waitingUpdate = nil
                sendFollow(next)
            }
        }
    }

    static let uuid = "touchgest-focus@touchgest.org"

    /// The desktop actions the extension does (its `_do`); GNOME's workspaces are one row,
    /// and it has no desktop to show.
    static let actions: Set<DesktopAction> = Set(DesktopAction.allCases).subtracting([.workspaceUp, .workspaceDown, .showDesktop])

    /// Asks the extension to press nothing, which it checks as any call (who calls, and
    /// whether the screen is locked): whether keys will go through it, said once.
    private func probe() {
        bus.call("org.gnome.Shell", Self.path, Self.interface, "Keys", [.string("")]) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                onReport?(.connected(name))
            case let .failure(error) where Self.isAbsent(error):
                if let fallback {
                    openFallback(fallback)
                } else {
                    onReport?(.lost(Self.absence(error)))
                }
            case let .failure(error) where error.message == "the screen is locked":
                onReport?(.connected(name))
            case let .failure(error):
                onReport?(.lost("touchgest's GNOME Shell extension refuses this touchgest: \(error.message.prefix(utf8Bytes: maximumOutsideTextBytes))"))
            }
        }
    }

    static func absence(_ error: BusError) -> String {
        "touchgest's GNOME Shell extension does not answer (\(error.name)): install it (make install, or the package), enable it (gnome-extensions enable \(uuid)) and log in again; or allow /dev/uinput (docs/input-actions.md)"
    }

    private func openFallback(_ fallback: UinputChannel) {
        guard !fallbackOpened else { return }
        fallbackOpened = true
        fallback.onReport = { [weak self] report in self?.onReport?(report) }
        fallback.start()
    }

    /// The extension is not there: the shell has no such object or interface (disabled,
    /// not installed), or no shell is on the bus.
    static func isAbsent(_ error: BusError) -> Bool { error.isAbsent }

    /// The `Keys` arguments of keys or a text: `KEYSYM:1 KEYSYM:0 ...` in hex, each chord's
    /// keysyms down in order and up in reverse, each character of a text down and up; in
    /// pieces of at most ``strokesPerCall`` strokes.
    static func strokes(of action: InputAction) -> [String] {
        var strokes: [String] = []
        func stroke(_ keysym: UInt32, _ pressed: Bool) { strokes.append(String(keysym, radix: 16) + (pressed ? ":1" : ":0")) }
        switch action {
        case let .keys(chords):
            for chord in chords {
                for keysym in chord.keysyms { stroke(keysym, true) }
                for keysym in chord.keysyms.reversed() { stroke(keysym, false) }
            }
        case let .text(text):
            for scalar in text.unicodeScalars {
                let keysym = Keysym.typing(scalar)
                stroke(keysym, true)
                stroke(keysym, false)
            }
        case .button, .shortcut, .desktop:
            break
        }
        return stride(from: 0, to: strokes.count, by: strokesPerCall).map {
            strokes[$0..<min($0 + strokesPerCall, strokes.count)].joined(separator: " ")
        }
    }

    /// Says once per cause why a press was not done.
    private func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.cannotPress(why))
    }

    // MARK: PollSource: the session bus

    public func collect(_ interest: inout PollInterest) { bus.collect(&interest) }
    public func handleReadable(_ fd: Int32) { if bus.owns(fd) { bus.handleReadable() } }
    public var nextDeadline: Timestamp? { bus.deadline }
    public func handleDeadlines() { bus.handleDeadlines() }
}
