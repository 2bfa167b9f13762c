import Glibc
import PollLoop
import TestSupport
import Testing
import TouchGestures
@testable import FocusProviders

/// Runs a shell command to its end; returns its standard output without the last newline.
@discardableResult
func shell(_ command: String) -> String {
    guard let pipe = popen(command, "r") else { return "" }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
        let count = fread(&buffer, 1, buffer.count, pipe)
        if count <= 0 { break }
        output += buffer[0..<count]
    }
    pclose(pipe)
    var text = String(decoding: output, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
}

/// Protocol tests: KDE Plasma's and GNOME's D-Bus focus, against a private dbus-daemon
/// with stand-ins for KWin and GNOME Shell (rig/dbus-desktop.py) that speak the same
/// names and calls; neither desktop can run here. The stand-in for KWin checks the
/// shipped script (data/kwin/touchgest-focus.js) names touchgest's calls.
@Suite(.serialized) struct DBusProtocolTests {
    static let desktop = "\(packageRoot)/rig/dbus-desktop"
    static let script = "\(packageRoot)/data/kwin/touchgest-focus.js"

    func activate(_ address: String, _ name: String, _ wmClass: String, _ title: String) {
        shell("dbus-send --bus='\(address)' --print-reply --dest=\(name) /Test org.touchgest.Test.Activate string:'\(wmClass)' string:'\(title)' > /dev/null")
    }

    @Test func touchgestLoadsItsScriptIntoKWinFollowsActivationsAndSurvivesKWinAndTheBusGoing() throws {
        let folder = temporaryFolder()
        let address = shell("'\(Self.desktop)' bus \(folder)")
        defer { shell("'\(Self.desktop)' stop-bus \(folder)") }
        shell("'\(Self.desktop)' start \(folder) kwin")
        let rig = ProviderRig(DBusFocusProvider(.kde(script: Self.script), environment: ["DBUS_SESSION_BUS_ADDRESS": address]))
        rig.run(untilReports: 2)
        activate(address, "org.kde.KWin", "org.kde.konsole", "~ : bash")
        rig.run(untilReports: 3)
        activate(address, "org.kde.KWin", "", "")
        rig.run(untilReports: 4)
        // KWin goes away (it restarts, or the session ends): touchgest says so once and
        // loads its script again into the next KWin, with no timer of its own.
        shell("'\(Self.desktop)' stop \(folder)")
        rig.run(untilReports: 5)
        #expect(rig.provider.nextDeadline == nil)
        shell("'\(Self.desktop)' start \(folder) kwin")
        rig.run(untilReports: 7)
        // The bus itself goes away and comes back at the same address.
        shell("'\(Self.desktop)' stop-bus \(folder)")
        rig.run(untilReports: 8)
        shell("'\(Self.desktop)' bus \(folder) > /dev/null && '\(Self.desktop)' start \(folder) kwin")
        rig.run(untilReports: 10)
        let connected = FocusReport.connected("kde: KWin on the session bus at \(address), running \(Self.script)")
        let firefox = FocusReport.focused(.window(appID: "firefox-esr", title: "Debian - Mozilla Firefox"))
        #expect(rig.reports == [
            connected, firefox,
            .focused(.window(appID: "org.kde.konsole", title: "~ : bash")),
            .focused(.noWindow),
            .lost("KWin left the session bus at \(address); waiting for it"),
            connected, firefox,
            .lost("the session bus closed the connection; trying again"),
            connected, firefox,
        ])
        // Each KWin got the script once, replacing one of the same name, and ran it.
        let calls = readText("\(folder)/kwin.log").split(separator: "\n").filter { $0 != "ready" }
        #expect(calls == Array(repeating: [
            "unloadScript touchgest-focus", "loadScript \(Self.script) touchgest-focus", "start",
        ], count: 3).flatMap { $0 }, "\(calls)")
    }

    @Test func withoutKWinTouchgestSaysWhyOnceAndWaitsForTheBusToSayItCame() throws {
        let folder = temporaryFolder()
        let address = shell("'\(Self.desktop)' bus \(folder)")
        defer { shell("'\(Self.desktop)' stop-bus \(folder)") }
        let rig = ProviderRig(DBusFocusProvider(.kde(script: Self.script), environment: ["DBUS_SESSION_BUS_ADDRESS": address]))
        rig.run(untilReports: 1)
        #expect(rig.reports == [.lost("KWin is not on the session bus at \(address) (org.freedesktop.DBus.Error.NameHasNoOwner: Could not get owner of name 'org.kde.KWin': no such name); waiting for it")])
        #expect(rig.provider.nextDeadline == nil)
        shell("'\(Self.desktop)' start \(folder) kwin")
        rig.run(untilReports: 3)
        #expect(rig.reports.count == 3)
    }

    @Test func aScriptKWinCannotLoadIsSaid() throws {
        let folder = temporaryFolder()
        let address = shell("'\(Self.desktop)' bus \(folder)")
        defer { shell("'\(Self.desktop)' stop-bus \(folder)") }
        shell("'\(Self.desktop)' start \(folder) kwin")
        let rig = ProviderRig(DBusFocusProvider(.kde(script: "/nonexistent/touchgest-focus.js"), environment: ["DBUS_SESSION_BUS_ADDRESS": address]))
        rig.run(untilReports: 1)
        #expect(rig.reports == [.lost("KWin did not load /nonexistent/touchgest-focus.js (id -1): is the file there and readable?")])
    }

    /// libdbus says Hello and adds match rules only by blocking, for up to 25 s a call: a
    /// bus socket that listens and never accepts held the loop that long each try.
    @Test(.timeLimit(.minutes(1))) func aBusThatNeverAnswersIsGivenUpOnAndAskedOnceNotOncePerTry() throws {
        let server = LocalServer(path: temporaryFolder() + "/bus")
        let address = "unix:path=\(server.path)"
        let rig = ProviderRig(DBusFocusProvider(.gnome, environment: ["DBUS_SESSION_BUS_ADDRESS": address], connectTimeout: .milliseconds(200)))
        #expect(rig.run(untilReports: 1) == [.lost("the session bus at \(address) did not answer within 200 ms")])
        for _ in 0..<3 {
            rig.run(until: try #require(rig.provider.nextDeadline))
        }
        #expect(server.waitingConnections() == 1)
        #expect(rig.reports.count == 1)
    }

    /// Another program of the user's sends touchgest alone (a unicast signal, which skips
    /// match rules) a NameOwnerChanged naming itself GNOME Shell, then a FocusChanged: the
    /// bus's signals come only from the bus, and the focus only from the shell. The real
    /// shell's next focus is what the test waits for.
    @Test func aProgramThatNamesItselfTheShellIsNotFollowed() throws {
        let folder = temporaryFolder()
        let address = shell("'\(Self.desktop)' bus \(folder)")
        defer { shell("'\(Self.desktop)' stop-bus \(folder)") }
        shell("'\(Self.desktop)' start \(folder) gnome-shell")
        let provider = DBusFocusProvider(.gnome, environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        let rig = ProviderRig(provider)
        rig.run(untilReports: 2)
        let target = try #require(provider.uniqueName)
        let done = "\(folder)/forged"
        shell("{ /usr/bin/python3 - '\(address)' \(target) gnome-focus < '\(packageRoot)/rig/forge-signals.py'; touch \(done); } > \(folder)/forger.out 2>&1 &")
        let deadline = PollScheduler.now() + .seconds(30)
        while access(done, F_OK) != 0 && PollScheduler.now() < deadline {
            rig.loop.run(until: PollScheduler.now() + .milliseconds(20))
        }
        try #require(shell("cat \(folder)/forger.out").hasPrefix(":1."))
        activate(address, "org.gnome.Shell", "org.gnome.Ptyxis", "bash")
        rig.run(untilReports: 3)
        #expect(rig.reports == [
            .connected("gnome: GNOME Shell on the session bus at \(address)"),
            .focused(.window(appID: "firefox-esr", title: "Debian - Mozilla Firefox")),
            .focused(.window(appID: "org.gnome.Ptyxis", title: "bash")),
        ])
    }

    @Test func theGnomeExtensionsSignalIsFollowedAndItsAbsenceSaid() throws {
        let folder = temporaryFolder()
        let address = shell("'\(Self.desktop)' bus \(folder)")
        defer { shell("'\(Self.desktop)' stop-bus \(folder)") }
        shell("'\(Self.desktop)' start \(folder) gnome-shell")
        let rig = ProviderRig(DBusFocusProvider(.gnome, environment: ["DBUS_SESSION_BUS_ADDRESS": address]))
        rig.run(untilReports: 2)
        activate(address, "org.gnome.Shell", "org.gnome.Ptyxis", "bash")
        rig.run(untilReports: 3)
        // The extension is turned off: GNOME Shell is there and says so (ExtensionStateChanged).
        shell("dbus-send --bus='\(address)' --print-reply --dest=org.gnome.Shell /Test org.touchgest.Test.Enable boolean:false > /dev/null")
        rig.run(untilReports: 4)
        shell("'\(Self.desktop)' stop \(folder)")
        rig.run(untilReports: 5)
        // A shell that starts with it off says so too, at once.
        shell("'\(Self.desktop)' start \(folder) gnome-shell")
        shell("dbus-send --bus='\(address)' --print-reply --dest=org.gnome.Shell /Test org.touchgest.Test.Enable boolean:false > /dev/null")
        rig.run(untilReports: 6)
        // Enabled again, it signals the focus, and touchgest follows it.
        shell("dbus-send --bus='\(address)' --print-reply --dest=org.gnome.Shell /Test org.touchgest.Test.Enable boolean:true > /dev/null")
        rig.run(untilReports: 8)
        let connected = FocusReport.connected("gnome: GNOME Shell on the session bus at \(address)")
        let disabled = FocusReport.lost("the extension touchgest-focus@touchgest.org is disabled: gnome-extensions enable touchgest-focus@touchgest.org")
        #expect(rig.reports == [
            connected,
            .focused(.window(appID: "firefox-esr", title: "Debian - Mozilla Firefox")),
            .focused(.window(appID: "org.gnome.Ptyxis", title: "bash")),
            disabled,
            .lost("GNOME Shell left the session bus at \(address); waiting for it"),
            disabled,
            connected,
            .focused(.window(appID: "firefox-esr", title: "Debian - Mozilla Firefox")),
        ])
    }

    /// Modifiers (Clutter's mask) held in the GNOME Shell stand-in.
    func hold(_ address: String, _ mask: UInt32) {
        shell("dbus-send --bus='\(address)' --print-reply --dest=org.gnome.Shell /Test org.touchgest.Test.Modifiers uint32:\(mask) > /dev/null")
    }

    func enable(_ address: String, _ on: Bool) {
        shell("dbus-send --bus='\(address)' --print-reply --dest=org.gnome.Shell /Test org.touchgest.Test.Enable boolean:\(on) > /dev/null")
    }

    /// Rules want modifiers: touchgest asks the extension to watch them (its answer is the
    /// state now) and follows its unicast ModifiersChanged; another program of the user's
    /// that names itself the shell and sends touchgest alone ModifiersChanged(Super) is not
    /// heard. Enabled anew (it forgot its watchers), the extension is asked again; rules
    /// that no longer want modifiers unwatch them.
    @Test func theShellsModifiersAreFollowedAndAnotherSendersIgnored() throws {
        let folder = temporaryFolder()
        let address = shell("'\(Self.desktop)' bus \(folder)")
        defer { shell("'\(Self.desktop)' stop-bus \(folder)") }
        shell("'\(Self.desktop)' start \(folder) gnome-shell")
        let provider = DBusFocusProvider(.gnome, environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        provider.followModifiers(true)
        let rig = ProviderRig(provider)
        rig.run(untilReports: 3)
        let target = try #require(provider.uniqueName)
        let done = "\(folder)/forged"
        shell("{ /usr/bin/python3 - '\(address)' \(target) gnome-modifiers < '\(packageRoot)/rig/forge-signals.py'; touch \(done); } > \(folder)/forger.out 2>&1 &")
        let deadline = PollScheduler.now() + .seconds(30)
        while access(done, F_OK) != 0 && PollScheduler.now() < deadline {
            rig.loop.run(until: PollScheduler.now() + .milliseconds(20))
        }
        try #require(shell("cat \(folder)/forger.out").hasPrefix(":1."))
        hold(address, 1)
        rig.run(untilReports: 4)
        enable(address, false)
        rig.run(untilReports: 5)
        enable(address, true)
        rig.run(untilReports: 8)
        hold(address, 0x40 | 0x4)
        rig.run(untilReports: 9)
        provider.followModifiers(false)
        let unwatched = "UnwatchModifiers \(target)"
        while !readText("\(folder)/gnome-shell.log").contains(unwatched) && PollScheduler.now() < deadline {
            rig.loop.run(until: PollScheduler.now() + .milliseconds(20))
        }
        hold(address, 1)
        activate(address, "org.gnome.Shell", "org.gnome.Ptyxis", "bash")
        rig.run(untilReports: 10)
        let connected = FocusReport.connected("gnome: GNOME Shell on the session bus at \(address)")
        let firefox = FocusReport.focused(.window(appID: "firefox-esr", title: "Debian - Mozilla Firefox"))
        #expect(rig.reports == [
            connected, firefox, .modifiers([]), .modifiers(.shift),
            .lost("the extension touchgest-focus@touchgest.org is disabled: gnome-extensions enable touchgest-focus@touchgest.org"),
            connected, firefox, .modifiers(.shift), .modifiers([.command, .control]),
            .focused(.window(appID: "org.gnome.Ptyxis", title: "bash")),
        ])
        #expect(readText("\(folder)/gnome-shell.log").split(separator: "\n").filter { $0.contains("atchModifiers") } == [
            "WatchModifiers \(target)", "WatchModifiers \(target)", "UnwatchModifiers \(target)",
        ])
    }

    /// An extension from before WatchModifiers: said once, with what to update, and not
    /// again when it is enabled anew; the focus is followed all the same.
    @Test func anExtensionTooOldToTellTheModifiersIsSaidOnce() throws {
        let folder = temporaryFolder()
        let address = shell("'\(Self.desktop)' bus \(folder)")
        defer { shell("'\(Self.desktop)' stop-bus \(folder)") }
        shell("'\(Self.desktop)' start \(folder) gnome-shell-old")
        let provider = DBusFocusProvider(.gnome, environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        provider.followModifiers(true)
        let rig = ProviderRig(provider)
        rig.run(untilReports: 3)
        enable(address, false)
        rig.run(untilReports: 4)
        enable(address, true)
        rig.run(untilReports: 6)
        activate(address, "org.gnome.Shell", "org.gnome.Ptyxis", "bash")
        rig.run(untilReports: 7)
        let connected = FocusReport.connected("gnome: GNOME Shell on the session bus at \(address)")
        let firefox = FocusReport.focused(.window(appID: "firefox-esr", title: "Debian - Mozilla Firefox"))
        #expect(rig.reports == [
            connected, firefox,
            .modifiersUnknown("the extension touchgest-focus@touchgest.org in GNOME Shell is older than this touchgest and cannot tell the "
                              + "modifier keys held, so rules with modifiers do not fire: update it (make install, or the touchgest package), "
                              + "then log out and in"),
            .lost("the extension touchgest-focus@touchgest.org is disabled: gnome-extensions enable touchgest-focus@touchgest.org"),
            connected, firefox,
            .focused(.window(appID: "org.gnome.Ptyxis", title: "bash")),
        ])
    }
}
