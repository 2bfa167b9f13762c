import InputChannels
import PollLoop
import Rulebook
import TouchGestures

/// What `touchgest doctor` says of keys, text and buttons: which channel this desktop
/// gives touchgest (docs/input-actions.md), whether it answers, and what to do when not.
extension Doctor {
    /// Where the package puts the opt-in udev rule for /dev/uinput.
    static let uinputRule = "/usr/share/touchgest/70-touchgest-uinput.rules"

    /// Chooses the channel as `run` does and tries it for up to `timeout`.
    public mutating func checkInput(_ book: Rulebook?, timeout: Duration = .seconds(3)) {
        let users = (book?.rules ?? []).filter(\.pressesInput).map(\.name)
        let used = users.isEmpty ? "no rule presses keys, text or buttons" : "rules that press keys, text or buttons: \(users.joined(separator: ", "))"
        // Without such rules, what the desktop offers is worth knowing, not a problem.
        let failing: Finding.Level = users.isEmpty ? .note : .warn
        let channel: InputChannel
        switch InputChannels.choose(environment: environment) {
        case let .failure(problem):
            return add(failing, "input", "\(problem.description); \(used)",
                       fix: "let touchgest make a keyboard of its own on /dev/uinput: sudo cp \(Self.uinputRule) /etc/udev/rules.d/, "
                           + "then sudo modprobe uinput and log in again (any program you run may then type into the focused window, "
                           + "the lock screen included; docs/input-actions.md), or give these rules a command")
        case let .success(chosen):
            channel = chosen
        }
        var reports: [InputChannelReport] = []
        channel.onReport = { reports.append($0) }
        let loop = EventLoop()
        loop.add(channel)
        channel.start()
        let end = PollScheduler.now() + timeout
        while reports.isEmpty && PollScheduler.now() < end {
            loop.run(until: min(end, PollScheduler.now() + .milliseconds(50)))
        }
        switch reports.first {
        case let .connected(name)?:
            add(.ok, "input", "keys, text and buttons go through \(name); \(used)")
        case let .lost(why)?, let .cannotPress(why)?:
            add(failing, "input", "\(channel.name) does not answer: \(why); \(used)")
        case nil:
            add(failing, "input", "\(channel.name) did not answer within \(timeout); \(used)")
        }
    }

    /// Where the rules' desktop actions go on this desktop, and which of them it lacks.
    public mutating func checkActions(_ book: Rulebook?) {
        let places = book?.actionPlaces ?? []
        guard !places.isEmpty else { return }
        let rules = "rules with actions: \(Self.listed(places.map(\.rule)))"
        guard let route = InputChannels.actionRoute(environment: environment),
              let lacks = InputChannels.lackedActions(environment: environment) else {
            return add(.warn, "actions", "cannot tell which desktop this is, so actions do nothing here; \(rules)",
                       fix: "run touchgest in your desktop session (doctor reads its variables: XDG_CURRENT_DESKTOP, WAYLAND_DISPLAY, SWAYSOCK, DISPLAY)")
        }
        let lacking = places.compactMap { place in lacks(place.action).map { "\($0) (rule '\(place.rule)')" } }
        guard lacking.isEmpty else {
            return add(.warn, "actions", "actions go through \(route), but \(Self.listed(lacking, quoted: false)); \(rules)",
                       fix: "give those rules keys or a command instead (man touchgest-rules lists which desktops have which actions)")
        }
        add(.ok, "actions", "actions go through \(route); \(rules)")
    }

    private static func listed(_ items: [String], quoted: Bool = true) -> String {
        var seen: Set<String> = []
        return items.filter { seen.insert($0).inserted }.map { quoted ? "'\($0)'" : $0 }.joined(separator: ", ")
    }
}
