import Glibc
import PollLoop
import Testing
import TouchGestures
@testable import FocusProviders

/// The X11 provider's choice and its failures without a server; the real X server
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
}
