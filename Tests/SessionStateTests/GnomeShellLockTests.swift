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
        let addresses = shell("'\(Self.rig)' start \(folder) 2> \(folder)/rig.err").split(separator: "\n").map(String.init)
        try #require(addresses.count == 2, "\(readText("\(folder)/rig.err"))")
        let rig = MonitorRig(["DBUS_SYSTEM_BUS_ADDRESS": addresses[0], "DBUS_SESSION_BUS_ADDRESS": addresses[1], "XDG_SESSION_ID": "c1"])
        // The shell renders in software on shared cores: give it time under load (in CI,
        // with every other desktop of the suite starting beside it, 60 s was once not enough).
        let shield = SessionReport.following("org.gnome.Shell.ScreenShield on the session bus at \(addresses[1])")
        try run(rig, within: .seconds(150)) { _ in rig.reports.contains(shield) && rig.monitor.isSettled }
        // Nothing has started the org.gnome.ScreenSaver service that passes the shell's on.
        let savers = try rig.monitor.screensavers.get()
        #expect(savers.map(\.text) == ["not on the session bus", "not on the session bus", "on the session bus; not active"])
        #expect(rig.monitor.state == SessionState(.unlocked))

        shell("'\(Self.buses)' lock \(folder)")
        // Locking and unlocking animate the shield, which the shell renders in software on the
        // same shared cores: the same allowance as its start.
        try run(rig, within: .seconds(150)) {
            $0.reasons.contains("logind's LockedHint is true") && $0.reasons.contains("org.gnome.Shell.ScreenShield is active")
        }
        #expect(rig.monitor.state.condition == .locked)
        shell("'\(Self.buses)' unlock \(folder)")
        try run(rig, within: .seconds(150)) { $0.condition == .unlocked }
        // Every state on the way was a lock until the shell unlocked.
        #expect(rig.states.dropLast().allSatisfy { $0.hasPrefix("locked (") }, "\(rig.states)")
    }

    /// Runs the loop until the state meets `wanted` (or `within` passes: a failing test shows what came).
    func run(_ rig: MonitorRig, within: Duration = .seconds(60), until wanted: (SessionState) -> Bool) throws {
        let deadline = PollScheduler.now() + within
        while !wanted(rig.monitor.state) && PollScheduler.now() < deadline {
            rig.loop.run(until: min(deadline, PollScheduler.now() + .milliseconds(20)))
        }
        // A failure says what each screensaver was left at (not on the bus, unanswered,
        // answered) and whether an answer was still outstanding, not only the reports.
        let savers = (try? rig.monitor.screensavers.get())?.map { "\($0.name): \($0.text)" } ?? ["the session bus: unreachable"]
        try #require(wanted(rig.monitor.state),
                     "\(rig.reports); \(savers.joined(separator: "; ")); settled: \(rig.monitor.isSettled)")
    }
}
