import CProcess
import Glibc
import PollLoop
import Testing
import TouchGestures
@testable import FocusProviders

/// The X11 provider's choice and its failures without a server, and what it does with
/// events on a bare X server (Xvfb, the test as window manager); the real desktop
/// (Xvfb, openbox, xterm) is in the end-to-end tests (X11FocusTests).
@Suite struct X11ProviderTests {
    @Test func autoTakesX11WhenDisplayIsSetAndNoWaylandCompositorIs() throws {
        #expect(try FocusProviders.choose(environment: ["DISPLAY": ":0"]).get().desktop == "x11")
        // sway's own IPC beats its Xwayland's DISPLAY.
        #expect(try FocusProviders.choose(environment: ["DISPLAY": ":0", "SWAYSOCK": "/run/s.sock"]).get().desktop == "sway")
        // Under another Wayland compositor DISPLAY is Xwayland's: no provider, and why.
        #expect(throws: FocusWireError("no focus provider for this Wayland compositor: none of SWAYSOCK, I3SOCK, HYPRLAND_INSTANCE_SIGNATURE or NIRI_SOCKET is set and XDG_CURRENT_DESKTOP names neither KDE nor GNOME (DISPLAY is Xwayland's, which knows only its own windows)")) {
            try FocusProviders.choose(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]).get()
        }
        // Plasma and GNOME: their D-Bus providers on Wayland, the X11 one on X11.
        #expect(try FocusProviders.choose(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"]).get().desktop == "kde")
        #expect(try FocusProviders.choose(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"]).get().desktop == "gnome")
        #expect(try FocusProviders.choose(environment: ["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "KDE"]).get().desktop == "x11")
        #expect(try FocusProviders.choose("x11", environment: ["DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-0"]).get().desktop == "x11")
    }

    @Test func withNoServerTheProviderSaysWhyOnceAndTriesAgainLater() throws {
        let rig = ProviderRig(X11FocusProvider(display: ":4242"))
        #expect(rig.run(untilReports: 1) == [.lost("cannot reach the X server at :4242: connection failed (no server there, or it closed)")])
        #expect(rig.provider.nextDeadline != nil)
        #expect(rig.provider.pollDescriptors.isEmpty)
        // Tries again when its deadline comes, waits twice as long before the next try,
        // and says nothing new while the cause stays.
        let first = try #require(rig.provider.nextDeadline)
        let firstWait = first - PollScheduler.now()
        rig.run(until: first)
        let second = try #require(rig.provider.nextDeadline)
        #expect(second > first, "no second try")
        #expect(second - first >= firstWait * 2 - .milliseconds(1), "the wait did not double: \(firstWait) then \(second - first)")
        #expect(rig.reports.count == 1)
    }

    @Test func withoutDisplayTheProviderSaysSo() {
        let rig = ProviderRig(X11FocusProvider(display: ""))
        #expect(rig.reports == [.lost("DISPLAY is not set")])
    }

    /// xcb_connect writes its setup and reads the answer with no timeout: an X socket that
    /// listens and never accepts (a hung server) held the loop, and SIGTERM, for ever.
    @Test(.timeLimit(.minutes(1))) func aServerThatNeverAnswersIsGivenUpOnAndAskedOnceNotOncePerTry() throws {
        let display = 4_300 + Int(getpid() % 600)
        let server = try #require(AbstractListener(name: "/tmp/.X11-unix/X\(display)"))
        let rig = ProviderRig(X11FocusProvider(display: ":\(display)", connectTimeout: .milliseconds(200)))
        #expect(rig.run(untilReports: 1) == [.lost("the X server at :\(display) did not answer within 200 ms")])
        // Three more tries come and go while the first connect is still stuck: none of
        // them connects again beside it, and nothing more is said.
        for _ in 0..<3 {
            rig.run(until: try #require(rig.provider.nextDeadline))
        }
        #expect(server.waitingConnections() == 1)
        #expect(rig.reports.count == 1)
    }

    /// XCB keeps the events that come while it waits for a reply in a queue of its own,
    /// and the descriptor does not show them. A focus change that came while the provider
    /// read a window's new title was followed only at the server's next event, which
    /// might never come (X11FocusTests lost openbox's switch to an empty desktop, about
    /// 1 run in 7 under load). The server, grabbed by the test's client, holds the
    /// provider's reads until the test has made the change.
    @Test(.timeLimit(.minutes(1))) func aFocusChangeThatComesWhileATitleIsReadIsFollowed() throws {
        let server = try BareXServer()
        let manager = try #require(XClient(display: server.display))
        let one = manager.window(class: "one", title: "One")
        let two = manager.window(class: "two", title: "Two")
        manager.activate(one)
        manager.sync()
        let rig = ProviderRig(X11FocusProvider(display: server.display))
        #expect(rig.run(untilReports: 2) == [.connected("x11 at \(server.display)"), .focused(.window(appID: "one", title: "One"))])
        let fd = try #require(rig.provider.pollDescriptors.first)

        manager.grabServer()
        manager.setTitle(one, "One again")
        manager.sync()
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        try #require(poll(&ready, 1, 10_000) == 1, "the title's event did not reach the provider")
        // The provider takes the title's event on a thread, so the test can act while the
        // provider waits for the title itself, its request held by the grab.
        var told: [Int32] = [-1, -1]
        try #require(cprocess_pipe_cloexec(&told) == 0)
        defer { told.forEach { close($0) } }
        let writeEnd = told[1]
        nonisolated(unsafe) let provider = rig.provider
        let reader = try #require(BackgroundAttempt.start({
            var me = cprocess_thread_id()
            _ = write(writeEnd, &me, MemoryLayout<pid_t>.size)
            provider.handleReadable(fd)
        }, dispose: { _ in }))
        var thread: pid_t = 0
        try #require(read(told[0], &thread, MemoryLayout<pid_t>.size) == MemoryLayout<pid_t>.size)
        // Until the thread waits for the title's reply (or gives up: it then never will).
        let deadline = PollScheduler.now() + .seconds(10)
        var waiting = false
        while !waiting && reader.isRunning && PollScheduler.now() < deadline {
            waiting = waitsInPoll(thread: thread)
            if !waiting { sched_yield() }
        }
        if waiting { manager.activate(two) }
        manager.ungrabServer()
        var done = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
        try #require(poll(&done, 1, 10_000) == 1, "the provider's thread did not return")
        try #require(waiting, "the provider's thread never waited for the title")

        #expect(rig.run(untilReports: 4) == [
            .connected("x11 at \(server.display)"), .focused(.window(appID: "one", title: "One")),
            .focused(.window(appID: "one", title: "One again")), .focused(.window(appID: "two", title: "Two")),
        ])
    }
}
