import Glibc
import PollLoop
import TestSupport
import Testing
import TouchGestures
@testable import SessionState

/// logind's side, against python3-dbusmock's logind template on a private bus: a stand-in
/// that speaks logind's names, properties and signals (rig/session-buses). No session bus
/// here: the screensaver has tests of its own.
@Suite(.serialized) struct LogindTests {
    static let noSessionBus = SessionReport.missing(
        "no session bus: touchgest cannot follow the screensaver (org.freedesktop.ScreenSaver, org.gnome.ScreenSaver, GNOME Shell's org.gnome.Shell.ScreenShield)")
    static let consequence = "touchgest cannot tell from logind that the screen is locked, that the session is not in front, or that the machine is going to sleep"

    func environment(_ system: String, session: String? = "c1") -> [String: String] {
        var environment = ["DBUS_SYSTEM_BUS_ADDRESS": system, "DBUS_SESSION_BUS_ADDRESS": ""]
        if let session { environment["XDG_SESSION_ID"] = session }
        return environment
    }

    @Test func activeLockedHintLockAndSleepAreFollowedAsTheyChangeWithNoTimer() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("logind FOLDER c1")
        let rig = MonitorRig(environment(system))
        rig.run(untilReports: 2)
        #expect(rig.reports == [Self.noSessionBus,
                                .following("logind: session c1 (XDG_SESSION_ID), /org/freedesktop/login1/session/c1, on the system bus at \(system)")])
        #expect(rig.monitor.state == SessionState(.unlocked))
        #expect(rig.monitor.nextDeadline == nil)
        var expected = 2
        func step(_ arguments: String) {
            buses.run(arguments)
            expected += 1
            rig.run(untilReports: expected)
        }
        step("set FOLDER LockedHint true")
        step("set FOLDER Active false")
        step("set FOLDER Active true")
        step("set FOLDER LockedHint false")
        step("lock FOLDER")
        step("unlock FOLDER")
        step("sleep FOLDER true")
        step("sleep FOLDER false")
        #expect(rig.states == [
            "locked (logind's LockedHint is true)",
            "inactive (logind says the session is not active)",
            "locked (logind's LockedHint is true)",
            "unlocked",
            "locked (logind asked the session to lock (Lock) and nothing has said it unlocked)",
            "unlocked",
            "sleeping (logind sent PrepareForSleep)",
            "unlocked",
        ])
        #expect(rig.monitor.nextDeadline == nil)
    }

    /// Every desktop has logind on the system bus, so its connection is read for as long
    /// as the daemon runs. Collected for poll(2), it would take the daemon's loop off its
    /// epoll set at every wake-up: poll, then the set. It is one steady descriptor.
    @Test func aConnectedBusKeepsTheLoopOnItsEpollSet() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("logind FOLDER c1")
        let rig = MonitorRig(environment(system))
        rig.run(untilReports: 2)
        var interest = PollInterest()
        rig.monitor.collect(&interest)
        #expect(interest.entries.map(\.fd) == [])
        #expect(interest.steady.count == 1)
    }

    /// The desktop that sets LockedHint after logind's Lock (GNOME, KDE) ends the lock
    /// by clearing it; one that never does (swaylock) needs logind's Unlock.
    @Test func aLockLogindAskedForEndsWhenTheDesktopClearsLockedHint() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("logind FOLDER c1")
        let rig = MonitorRig(environment(system))
        rig.run(untilReports: 2)
        buses.run("lock FOLDER")
        rig.run(untilReports: 3)
        buses.run("set FOLDER LockedHint true")
        rig.run(untilReports: 4)
        buses.run("set FOLDER LockedHint false")
        rig.run(untilReports: 5)
        #expect(rig.states == [
            "locked (logind asked the session to lock (Lock) and nothing has said it unlocked)",
            "locked (logind's LockedHint is true; logind asked the session to lock (Lock) and nothing has said it unlocked)",
            "unlocked",
        ])
    }

    @Test func withoutXDGSessionIDTheSessionOfTheProcessIsFollowed() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("logind FOLDER c2")
        let rig = MonitorRig(environment(system, session: nil))
        rig.run(untilReports: 2)
        #expect(rig.reports.last == .following("logind: the session of touchgest's process, /org/freedesktop/login1/session/c2, on the system bus at \(system)"))
    }

    /// A systemd user service runs in no session: the user's graphical session is followed.
    @Test func aUserServiceFollowsTheUsersGraphicalSession() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("logind FOLDER c3 \(getuid()) service")
        let rig = MonitorRig(environment(system, session: nil))
        rig.run(untilReports: 2)
        #expect(rig.reports.last == .following("logind: user \(getuid())'s graphical session c3, /org/freedesktop/login1/session/c3, on the system bus at \(system)"))
        buses.run("set FOLDER LockedHint true c3")
        rig.run(untilReports: 3)
        #expect(rig.states == ["locked (logind's LockedHint is true)"])
    }

    /// A user service started before the graphical session (at a text login, say): it
    /// waits for the user's Display, follows it when it comes, and follows the next one
    /// that takes its place, not the old one.
    @Test func aUserServiceFollowsAGraphicalSessionThatStartsLaterAndTheNextOne() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        let user = getuid()
        buses.run("logind FOLDER c3 \(user) service-later")
        let rig = MonitorRig(environment(system, session: nil))
        rig.run(untilReports: 2)
        guard case let .missing(why)? = rig.reports.last else {
            Issue.record("\(rig.reports)")
            return
        }
        #expect(why.hasPrefix("logind knows no session for touchgest (pid \(getpid()): org.freedesktop.login1.NoSessionForPID: "))
        #expect(why.hasSuffix("and user \(user) has no graphical session; waiting for one: \(Self.consequence)"))
        #expect(rig.monitor.nextDeadline == nil)
        buses.run("display FOLDER c3")
        rig.run(untilReports: 3)
        #expect(rig.reports.last == .following("logind: user \(user)'s graphical session c3, /org/freedesktop/login1/session/c3, on the system bus at \(system)"))
        buses.run("set FOLDER LockedHint true c3")
        rig.run(untilReports: 4)
        buses.run("add-session FOLDER c4")
        buses.run("display FOLDER c4")
        rig.run(untilReports: 6)
        #expect(rig.reports[4] == .following("logind: user \(user)'s graphical session c4, /org/freedesktop/login1/session/c4, on the system bus at \(system)"))
        // The old session's changes are no longer followed; the new one's are.
        buses.run("set FOLDER Active false c3")
        buses.run("set FOLDER LockedHint true c4")
        rig.run(untilReports: 7)
        #expect(rig.states == ["locked (logind's LockedHint is true)", "unlocked", "locked (logind's LockedHint is true)"])
    }

    @Test func aSessionLogindDoesNotKnowIsSaidOnce() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("logind FOLDER c1")
        let rig = MonitorRig(environment(system, session: "c9"))
        rig.runUntilSettled()
        #expect(rig.reports.count == 2)
        guard case let .missing(why)? = rig.reports.last else {
            Issue.record("\(rig.reports)")
            return
        }
        #expect(why.hasPrefix("logind has no session c9, the one XDG_SESSION_ID names ("))
        #expect(why.hasSuffix(Self.consequence))
        #expect(rig.monitor.state == SessionState(.unlocked))
    }

    /// No logind (a system without systemd, or a test): said once, touchgest acts as if
    /// unlocked, and it waits for the bus to say logind came, with no timer.
    @Test func withoutLogindItIsSaidOnceAndFollowedWhenItComes() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        let rig = MonitorRig(environment(system))
        rig.run(untilReports: 2)
        #expect(rig.reports.last == .missing("logind is not on the system bus at \(system) (org.freedesktop.DBus.Error.NameHasNoOwner: Could not get owner of name 'org.freedesktop.login1': no such name); waiting for it: \(Self.consequence)"))
        #expect(rig.monitor.nextDeadline == nil)
        #expect(rig.monitor.isSettled)
        buses.run("logind FOLDER c1")
        rig.run(untilReports: 3)
        #expect(rig.reports.last == .following("logind: session c1 (XDG_SESSION_ID), /org/freedesktop/login1/session/c1, on the system bus at \(system)"))
        buses.run("set FOLDER LockedHint true")
        rig.run(untilReports: 4)
        #expect(rig.states == ["locked (logind's LockedHint is true)"])
    }

    /// No system bus at all: said once, never tried again (it is not coming), no wake-up.
    @Test func withoutASystemBusItIsSaidOnceAndNotTriedAgain() throws {
        let folder = temporaryFolder()
        // Said at once, with no thread: nothing is left to wait for.
        let rig = MonitorRig(environment("unix:path=\(folder)/none"))
        #expect(rig.reports == [
            .missing("cannot reach the system bus at unix:path=\(folder)/none: \(folder)/none: No such file or directory: \(Self.consequence)"),
            Self.noSessionBus,
        ])
        #expect(rig.monitor.isSettled)
        #expect(rig.monitor.nextDeadline == nil && rig.monitor.pollDescriptors.isEmpty)
    }

    /// The bus goes away while locked: the lock is kept, and the state is read again when
    /// the bus (and logind) come back. logind alone restarting is followed the same way.
    @Test func theBusGoingAwayKeepsTheLastStateAndItIsReadAgainWhenItComesBack() throws {
        let buses = Buses()
        defer { buses.stopAll() }
        let system = buses.start("system")
        buses.run("logind FOLDER c1")
        let rig = MonitorRig(environment(system))
        rig.run(untilReports: 2)
        buses.run("set FOLDER LockedHint true")
        rig.run(untilReports: 3)
        buses.run("stop-bus FOLDER system")
        rig.run(untilReports: 4)
        #expect(rig.reports.last == .missing("the system bus closed the connection; keeping the last state known until it is back"))
        #expect(rig.monitor.state.condition == .locked)
        // Back, with the session unlocked meanwhile.
        buses.run("bus FOLDER system")
        buses.run("logind FOLDER c1")
        rig.run(untilReports: 6)
        #expect(Array(rig.reports.suffix(2)) == [
            .following("logind: session c1 (XDG_SESSION_ID), /org/freedesktop/login1/session/c1, on the system bus at \(system)"),
            .changed(SessionState(.unlocked)),
        ])
        #expect(rig.monitor.nextDeadline == nil)
        buses.run("set FOLDER Active false")
        rig.run(untilReports: 7)
        buses.run("stop-logind FOLDER")
        rig.run(untilReports: 8)
        #expect(rig.reports.last == .missing("logind left the system bus at \(system); keeping the last state known until it is back"))
        #expect(rig.monitor.state.condition == .inactive)
        buses.run("logind FOLDER c1")
        rig.run(untilReports: 10)
        #expect(Array(rig.reports.suffix(2)) == [
            .following("logind: session c1 (XDG_SESSION_ID), /org/freedesktop/login1/session/c1, on the system bus at \(system)"),
            .changed(SessionState(.unlocked)),
        ])
    }

    /// libdbus shakes hands only by blocking: a bus that accepts and never answers holds
    /// the connect's own thread, never the loop, and is said once.
    @Test(.timeLimit(.minutes(1))) func aBusThatNeverAnswersIsGivenUpOnWithoutHoldingTheLoop() throws {
        let path = temporaryFolder() + "/bus"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(listener, 4) == 0)
        let started = PollScheduler.now()
        let rig = MonitorRig(environment("unix:path=\(path)"), connectTimeout: .milliseconds(200))
        rig.runUntilSettled()
        #expect(PollScheduler.now() - started < .seconds(2))
        #expect(rig.reports.last == .missing("the system bus at unix:path=\(path) did not answer within 200 ms: \(Self.consequence)"))
        #expect(rig.monitor.nextDeadline == nil)
    }
}
