import Glibc
import PollLoop
import TestSupport
import Testing
import TouchGestures
@testable import SessionState

/// A real GNOME Shell 43.9, headless (rig/gnome-shell-lock), locked and unlocked through
/// logind as `loginctl lock-session` and `unlock-session` do; logind is python3-dbusmock's
/// template (a stand-in), the shell and its screen shield are real. The shell sets
/// LockedHint itself and says ActiveChanged as org.gnome.Shell.ScreenShield.
@Suite(.serialized) struct GnomeShellLockTests {
    static let rig = "\(packageRoot)/rig/gnome-shell-lock"
    static let buses = "\(packageRoot)/rig/session-buses"

    @Test(.timeLimit(.minutes(5))) func aRealGnomeShellLockingAndUnlockingIsFollowed() throws {
        let folder = temporaryFolder()
        defer { shell("'\(Self.rig)' stop \(folder)") }
        let starting = PollScheduler.now()
        let addresses = shell("'\(Self.rig)' start \(folder) 2> \(folder)/rig.err").split(separator: "\n").map(String.init)
        try #require(addresses.count == 2, "\(readText("\(folder)/rig.err"))")
        // How long the shell took to answer the rig's first GetActive, for a failure to show.
        let startup = PollScheduler.now() - starting
        let rig = MonitorRig(["DBUS_SYSTEM_BUS_ADDRESS": addresses[0], "DBUS_SESSION_BUS_ADDRESS": addresses[1], "XDG_SESSION_ID": "c1"])
        // The shell renders in software on shared cores: give it time under load (in CI,
        // with every other desktop of the suite starting beside it, 60 s was once not enough).
        let shield = SessionReport.following("org.gnome.Shell.ScreenShield on the session bus at \(addresses[1])")
        try run(rig, folder, startup, within: .seconds(150)) { _ in rig.reports.contains(shield) && rig.monitor.isSettled }
        // Nothing has started the org.gnome.ScreenSaver service that passes the shell's on.
        let savers = try rig.monitor.screensavers.get()
        #expect(savers.map(\.text) == ["not on the session bus", "not on the session bus", "on the session bus; not active"])
        #expect(rig.monitor.state == SessionState(.unlocked))

        shell("'\(Self.buses)' lock \(folder)")
        // Locking and unlocking animate the shield, which the shell renders in software on the
        // same shared cores: the same allowance as its start.
        try run(rig, folder, startup, within: .seconds(150)) {
            $0.reasons.contains("logind's LockedHint is true") && $0.reasons.contains("org.gnome.Shell.ScreenShield is active")
        }
        #expect(rig.monitor.state.condition == .locked)
        shell("'\(Self.buses)' unlock \(folder)")
        try run(rig, folder, startup, within: .seconds(150)) { $0.condition == .unlocked }
        // Every state on the way was a lock until the shell unlocked.
        #expect(rig.states.dropLast().allSatisfy { $0.hasPrefix("locked (") }, "\(rig.states)")
    }

    /// Runs the loop until the state meets `wanted` (or `within` passes: a failing test shows what came).
    func run(_ rig: MonitorRig, _ folder: String, _ startup: Duration, within: Duration = .seconds(60), until wanted: (SessionState) -> Bool) throws {
        let started = PollScheduler.now()
        let deadline = started + within
        while !wanted(rig.monitor.state) && PollScheduler.now() < deadline {
            rig.loop.run(until: min(deadline, PollScheduler.now() + .milliseconds(20)))
        }
        guard !wanted(rig.monitor.state) else { return }
        // A failure says what each screensaver was left at (not on the bus, unanswered,
        // answered) and whether an answer was still outstanding, not only the reports; then
        // whether the shell answers anyone at all now (a shell starved of CPU, or stuck, does
        // not), and the end of its log.
        let savers = (try? rig.monitor.screensavers.get())?.map { "\($0.name): \($0.text)" } ?? ["the session bus: unreachable"]
        let asked = PollScheduler.now()
        let waited = asked - started
        let probe = shell("""
            dbus-send --bus=unix:path=\(folder)/runtime/bus --print-reply --reply-timeout=20000 \\
              --dest=org.gnome.Shell.ScreenShield /org/gnome/ScreenSaver org.gnome.ScreenSaver.GetActive 2>&1
            """)
        throw Failure(description: """
            after \(waited): \(rig.reports); \(savers.joined(separator: "; ")); \
            settled: \(rig.monitor.isSettled); the rig took \(startup) to start the shell
            dbus-send's GetActive to the shell, in \(PollScheduler.now() - asked): \(probe)
            the end of gnome-shell.log:
            \(shell("tail -n 25 \(folder)/gnome-shell.log"))
            """)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
