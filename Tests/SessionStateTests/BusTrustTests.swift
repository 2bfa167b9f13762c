import BusLoop
import Glibc
import PollLoop
import TestSupport
import Testing
import TouchGestures
@testable import SessionState

/// Another local user on the system bus, under Debian's own policy (rig/session-buses
/// `bus ... debian`), which lets any user send a signal to any connection: it finds
/// touchgest's connection and sends it signals that claim to come from logind
/// (rig/forge-signals.py, run as `nobody`). After each attack the real logind stand-in
/// changes something, and that change is what the test waits for: the bus hands a
/// connection its messages in the order it took them, so every forged one was read first.
@Suite(.serialized) struct BusTrustTests {
    static let session = "/org/freedesktop/login1/session/c1"
    /// The bus's `NameAcquired` for touchgest's own unique name, addressed to it alone: the
    /// one unicast signal every connection gets, refused like the rest.
    static let nameAcquired = 1

    /// A locked session, followed by a monitor on a bus with Debian's policy.
    func lockedSession() -> (Buses, MonitorRig) {
        let buses = Buses()
        let system = buses.start("system debian")
        buses.run("logind FOLDER c1")
        let rig = MonitorRig(["DBUS_SYSTEM_BUS_ADDRESS": system, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_SESSION_ID": "c1"])
        rig.run(untilReports: 2)
        buses.run("set FOLDER LockedHint true")
        rig.run(untilReports: 3)
        return (buses, rig)
    }

    /// Runs the forger beside the monitor's loop, as an attacker would, until it is done.
    func forge(_ buses: Buses, _ rig: MonitorRig, _ arguments: String) throws {
        let target = try #require(rig.monitor.logind.link.uniqueName)
        let done = "\(buses.folder)/forged"
        shell("{ '\(Buses.script)' forge \(buses.folder) system \(target) \(arguments); touch \(done); } > \(buses.folder)/forger.out 2>&1 &")
        let deadline = PollScheduler.now() + .seconds(30)
        while access(done, F_OK) != 0 && PollScheduler.now() < deadline {
            rig.loop.run(until: PollScheduler.now() + .milliseconds(20))
        }
        // It ran as another user, and the bus took its messages (it printed its name).
        let forger = shell("cat \(buses.folder)/forger.out")
        try #require(forger.hasPrefix(":1."), "the forger did not run: \(forger)")
    }

    @Test func anotherUserCannotUnlockTheSessionByNamingItselfLogind() throws {
        let (buses, rig) = lockedSession()
        defer { buses.stopAll() }
        try forge(buses, rig, "unlock \(Self.session)")
        buses.run("set FOLDER Active false")
        rig.run(untilReports: 4)
        buses.run("set FOLDER Active true")
        rig.run(untilReports: 5)
        // The real logind is still the one followed, and nothing the other user said counted.
        #expect(rig.states == [
            "locked (logind's LockedHint is true)",
            "inactive (logind says the session is not active)",
            "locked (logind's LockedHint is true)",
        ])
        #expect(rig.monitor.logind.link.signalsRefused == 21 + Self.nameAcquired)
    }

    @Test func anotherUserCannotLockTheSession() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system debian")
        buses.run("logind FOLDER c1")
        let rig = MonitorRig(["DBUS_SYSTEM_BUS_ADDRESS": system, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_SESSION_ID": "c1"])
        rig.run(untilReports: 2)
        try forge(buses, rig, "lock \(Self.session)")
        buses.run("set FOLDER Active false")
        rig.run(untilReports: 3)
        #expect(rig.states == ["inactive (logind says the session is not active)"])
    }

    /// Ten signals of 400,000 entries each: refused on their header, never decoded.
    @Test func hugeSignalsFromAnotherUserAreNotRead() throws {
        let (buses, rig) = lockedSession()
        defer { buses.stopAll() }
        try forge(buses, rig, "huge \(Self.session) 400000 10")
        buses.run("set FOLDER Active false")
        rig.run(untilReports: 4)
        #expect(rig.states == ["locked (logind's LockedHint is true)", "inactive (logind says the session is not active)"])
        #expect(rig.monitor.logind.link.signalsRefused == 10 + Self.nameAcquired)
    }

    @Test func aFloodFromAnotherUserChangesNothing() throws {
        let (buses, rig) = lockedSession()
        defer { buses.stopAll() }
        try forge(buses, rig, "flood \(Self.session) 5000")
        buses.run("set FOLDER Active false")
        rig.run(untilReports: 4)
        #expect(rig.states == ["locked (logind's LockedHint is true)", "inactive (logind says the session is not active)"])
        #expect(rig.monitor.logind.link.signalsRefused == 5000 + Self.nameAcquired)
    }

    /// logind itself (a broken or hijacked one) sends more than touchgest reads: the
    /// connection is dropped, said once, and made again; the state known is kept meanwhile
    /// and read afresh after.
    @Test func aTrustedSenderPastTheBoundsIsDroppedAndReadAgain() throws {
        let (buses, rig) = lockedSession()
        defer { buses.stopAll() }
        let logind = shell("busctl --address=unix:path=\(buses.folder)/system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetNameOwner s org.freedesktop.login1")
            .replacing("s \"", with: "").replacing("\"", with: "")
        buses.run("huge FOLDER 400000")
        rig.run(untilReports: 5)
        #expect(Array(rig.reports.dropFirst(3)) == [
            .missing("\(logind) sent org.freedesktop.DBus.Properties.PropertiesChanged with more than touchgest reads (4096 values, 16 levels deep, strings of 4096 bytes); keeping the last state known until it is back"),
            .following("logind: session c1 (XDG_SESSION_ID), /org/freedesktop/login1/session/c1, on the system bus at unix:path=\(buses.folder)/system"),
        ])
        #expect(rig.monitor.state == SessionState(.locked, reasons: ["logind's LockedHint is true"]))
    }

    /// logind toggling the lock without pause: every change takes effect, ten are said one
    /// by one, and the rest in one line when the window ends.
    @Test func aTogglingLogindIsSaidAtABoundedRate() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("logind FOLDER c1")
        let rig = MonitorRig(["DBUS_SYSTEM_BUS_ADDRESS": system, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_SESSION_ID": "c1"],
                             changeWindow: .seconds(4))
        rig.run(untilReports: 2)
        buses.run("toggle FOLDER 31")
        rig.run(untilReports: 2 + 31)
        let locked = SessionState(.locked, reasons: ["logind's LockedHint is true"])
        let changes = (0..<31).map { $0 % 2 == 0 ? locked : SessionState(.unlocked) }
        #expect(Array(rig.reports.dropFirst(2)) == changes.prefix(10).map { .changed($0) } + changes.dropFirst(10).map { .changedQuietly($0) })
        #expect(rig.monitor.nextDeadline != nil)
        rig.run(untilReports: 2 + 31 + 1)
        #expect(rig.reports.last == .unsaid(count: 21, now: locked))
        #expect(rig.monitor.nextDeadline == nil)
    }

    /// A logind that owns its name and never answers: said, with what it means, instead of
    /// a state of "unlocked" that nothing backs.
    @Test func aLogindThatNeverAnswersIsSaid() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("silent-logind FOLDER")
        let rig = MonitorRig(["DBUS_SYSTEM_BUS_ADDRESS": system, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_SESSION_ID": "c1"],
                             callTimeout: .milliseconds(300))
        rig.run(untilReports: 2)
        #expect(rig.reports.last == .missing(
            "logind is on the system bus at \(system) but does not answer (no answer to GetSession within 300 ms); waiting for it to come back: "
                + LogindTests.consequence))
        #expect(rig.monitor.logind.link.pendingCalls == 0)
    }
}
