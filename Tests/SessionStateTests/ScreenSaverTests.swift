import Glibc
import PollLoop
import TestSupport
import Testing
import TouchGestures
@testable import SessionState

/// The screensaver interfaces on the session bus, against local stand-ins
/// (rig/session-buses: python3-dbusmock objects with GetActive, SetActive and the
/// ActiveChanged signal, as GNOME Shell and KDE Plasma export them). No system bus here.
@Suite(.serialized) struct ScreenSaverTests {
    func environment(_ session: String, folder: String) -> [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(folder)/no-system-bus", "DBUS_SESSION_BUS_ADDRESS": session]
    }

    /// KDE Plasma's org.freedesktop.ScreenSaver; GNOME Shell's own
    /// org.gnome.Shell.ScreenShield, and the org.gnome.ScreenSaver service that passes it on.
    @Test(arguments: ["freedesktop", "gnome", "gnome-shell"])
    func aScreensaverThatGoesActiveLocksAndOneThatGoesInactiveUnlocks(kind: String) throws {
        let name = ["gnome": "org.gnome.ScreenSaver", "gnome-shell": "org.gnome.Shell.ScreenShield"][kind] ?? "org.freedesktop.ScreenSaver"
        let buses = Buses()
        defer { buses.stopAll() }
        let session = buses.start("session")
        buses.run("screensaver FOLDER \(kind)")
        let rig = MonitorRig(environment(session, folder: buses.folder))
        rig.run(untilReports: 2)
        #expect(rig.reports.contains(.following("\(name) on the session bus at \(session)")))
        buses.run("screensaver-active FOLDER \(kind) true")
        rig.run(untilReports: 3)
        buses.run("screensaver-active FOLDER \(kind) false")
        rig.run(untilReports: 4)
        // Gone while active: what it said goes with it.
        buses.run("screensaver-active FOLDER \(kind) true")
        rig.run(untilReports: 5)
        buses.run("stop-screensaver FOLDER \(kind)")
        rig.run(untilReports: 6)
        #expect(rig.states == ["locked (\(name) is active)", "unlocked", "locked (\(name) is active)", "unlocked"])
        #expect(rig.monitor.nextDeadline == nil)
    }

    @Test func aScreensaverActiveAtStartLocksAtOnce() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let session = buses.start("session")
        buses.run("screensaver FOLDER gnome")
        buses.run("screensaver-active FOLDER gnome true")
        let rig = MonitorRig(environment(session, folder: buses.folder))
        rig.run(untilReports: 3)
        #expect(rig.states == ["locked (org.gnome.ScreenSaver is active)"])
    }

    /// Anyone on the session bus can send a signal named ActiveChanged: only the owner of
    /// the screensaver's name is listened to (touchgest's match rules ask the bus for its
    /// signals alone, and the sender is checked again). Each forged signal is followed by a real one
    /// of the other screensaver, whose report shows what was known by then.
    @Test func anActiveChangedFromAnotherProgramIsIgnored() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let session = buses.start("session")
        buses.run("screensaver FOLDER gnome")
        buses.run("screensaver FOLDER freedesktop")
        let rig = MonitorRig(environment(session, folder: buses.folder))
        rig.runUntilSettled()
        let before = rig.reports.count
        shell("dbus-send --bus='\(session)' --type=signal /org/gnome/ScreenSaver org.gnome.ScreenSaver.ActiveChanged boolean:true")
        buses.run("screensaver-active FOLDER freedesktop true")
        rig.run(untilReports: before + 1)
        shell("dbus-send --bus='\(session)' --type=signal /org/freedesktop/ScreenSaver org.freedesktop.ScreenSaver.ActiveChanged boolean:false")
        buses.run("screensaver-active FOLDER gnome true")
        rig.run(untilReports: before + 2)
        #expect(rig.states == [
            "locked (org.freedesktop.ScreenSaver is active)",
            "locked (org.freedesktop.ScreenSaver is active; org.gnome.ScreenSaver is active)",
        ])
    }

    /// A program that owns the name only to offer Inhibit tells nothing: doctor says so.
    @Test func aScreensaverThatDoesNotAnswerGetActiveIsNamed() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let session = buses.start("session")
        buses.run("screensaver FOLDER freedesktop silent")
        buses.run("screensaver FOLDER gnome")
        let rig = MonitorRig(environment(session, folder: buses.folder))
        rig.runUntilSettled()
        let savers = try rig.monitor.screensavers.get()
        #expect(savers.map(\.name) == ["org.freedesktop.ScreenSaver", "org.gnome.ScreenSaver", "org.gnome.Shell.ScreenShield"])
        #expect(savers.map(\.tells) == [false, true, false])
        // The stand-in's error message is a Python traceback: its last line is kept.
        #expect(savers[0].text.hasPrefix("on the session bus, but does not answer GetActive (org.freedesktop.DBus.Error.UnknownMethod: "))
        #expect(savers[0].text.hasSuffix("Unknown method: GetActive is not a valid method of interface org.freedesktop.ScreenSaver)"))
        #expect(savers[1].text == "on the session bus; not active")
        #expect(savers[2].text == "not on the session bus")
    }

    /// One whose first GetActive went unanswered (a shell busy as it starts on a loaded
    /// machine) is asked again, and followed from its answer: no signal need come.
    @Test func aScreensaverThatMissesTheFirstGetActiveIsAskedAgain() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let session = buses.start("session")
        buses.run("screensaver FOLDER gnome busy-once")
        let rig = MonitorRig(environment(session, folder: buses.folder))
        let followed = SessionReport.following("org.gnome.ScreenSaver on the session bus at \(session)")
        // Waits for the report, bounded far above the two calls it takes.
        let deadline = PollScheduler.now() + .seconds(20)
        while !rig.reports.contains(followed) && PollScheduler.now() < deadline {
            rig.loop.run(until: PollScheduler.now() + .milliseconds(20))
        }
        #expect(rig.reports.contains(followed), "\(rig.reports)")
        let savers = try rig.monitor.screensavers.get()
        #expect(savers.map(\.text) == ["not on the session bus", "on the session bus; not active", "not on the session bus"])
    }

    /// One that left GetActive unanswered (GNOME Shell busy as it starts can) but signals
    /// ActiveChanged does tell: it is followed from its first signal, and doctor says so.
    @Test func aScreensaverThatDidNotAnswerGetActiveIsFollowedFromItsFirstSignal() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let session = buses.start("session")
        buses.run("screensaver FOLDER freedesktop silent")
        let rig = MonitorRig(environment(session, folder: buses.folder))
        rig.runUntilSettled()
        #expect(try rig.monitor.screensavers.get().map(\.tells) == [false, false, false])
        let before = rig.reports.count
        buses.run("screensaver-active FOLDER freedesktop true")
        rig.run(untilReports: before + 2)
        #expect(Array(rig.reports.dropFirst(before)).contains(.following("org.freedesktop.ScreenSaver on the session bus at \(session)")),
                "\(rig.reports)")
        #expect(rig.states == ["locked (org.freedesktop.ScreenSaver is active)"])
        let savers = try rig.monitor.screensavers.get()
        #expect(savers.map(\.tells) == [true, false, false])
        #expect(savers[0].text == "on the session bus; active")
    }

    /// A GetActive that fails after the screensaver signalled (the bus gave up on the call
    /// while the screensaver was busy locking) does not undo what the signal said.
    @Test func aGetActiveThatFailsAfterASignalDoesNotUndoIt() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let session = buses.start("session")
        buses.run("screensaver FOLDER freedesktop busy")
        let rig = MonitorRig(environment(session, folder: buses.folder))
        rig.runUntilSettled()
        #expect(rig.states == ["locked (org.freedesktop.ScreenSaver is active)"], "\(rig.reports)")
        let savers = try rig.monitor.screensavers.get()
        #expect(savers.map(\.tells) == [true, false, false])
        #expect(savers[0].text == "on the session bus; active")
    }

    /// logind's Lock with no LockedHint (sway's locker started from swayidle) ends when a
    /// screensaver says it went inactive: the desktop unlocked.
    @Test func aLockLogindAskedForEndsWhenAScreensaverGoesInactive() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        let session = buses.start("session")
        buses.run("logind FOLDER c1")
        buses.run("screensaver FOLDER freedesktop")
        let rig = MonitorRig(["DBUS_SYSTEM_BUS_ADDRESS": system, "DBUS_SESSION_BUS_ADDRESS": session, "XDG_SESSION_ID": "c1"])
        rig.run(untilReports: 2)
        buses.run("lock FOLDER")
        rig.run(untilReports: 3)
        buses.run("screensaver-active FOLDER freedesktop true")
        rig.run(untilReports: 4)
        buses.run("screensaver-active FOLDER freedesktop false")
        rig.run(untilReports: 5)
        #expect(rig.states == [
            "locked (logind asked the session to lock (Lock) and nothing has said it unlocked)",
            "locked (logind asked the session to lock (Lock) and nothing has said it unlocked; org.freedesktop.ScreenSaver is active)",
            "unlocked",
        ])
    }
}
