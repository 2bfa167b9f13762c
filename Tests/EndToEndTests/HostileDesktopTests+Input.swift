import Glibc
import TestSupport
import Testing

/// What a desktop can do to `touchgest run` through its input-action channel (issue 41).
extension HostileDesktopTests {
    /// An X server that stops (SIGSTOP on Xvfb) while a rule types 5,000 characters:
    /// every probe tap still runs its command before the next one lands (before, the loop
    /// hung in xcb_flush: 1 probe of 5 ran, and SIGTERM was not acted on), the server is
    /// dropped once it has taken nothing for the write stall, said once, and SIGTERM
    /// stops the daemon within a second. The one reconnect that waits on the stopped
    /// server holds its descriptors meanwhile.
    @Test func aStoppedXServerNeverHoldsATapNorTheEnd() throws {
        let x11 = temporaryFolder()
        defer { _ = shellOutput("kill -CONT $(cat \(x11)/xvfb.pid) 2>/dev/null; '\(headlessX11)' stop \(x11)") }
        let display = try startDesktop("'\(headlessX11)' start-bare \(x11)")
        let rules = Self.probe + """

            [rule.type]
            gesture = "tap"
            fingers = 3
            device = "touchpad"
            text = "\(String(repeating: "Hi! ", count: 1_250))"
            """
        let lost = "input: keys, text and buttons cannot be pressed: the X server at \(display) took no request for 2 s: it does not read its connection"
        let run = rig(devices: ["touchpad"], rules: rules, script: """
            device touchpad
            await input: connected to x11 XTEST at \(display)
            stats
            shell kill -STOP $(cat \(x11)/xvfb.pid)
            tap 3 at 50,35
            wait 300ms
            \(Self.probes)
            await \(lost)
            wait 300ms
            stats
            """, arguments: "run -v --allow-root --focus none", extra: Self.rigOptions,
            wrapper: "env DISPLAY=\(display) WAYLAND_DISPLAY=")
        #expect(run.status == 0, "\(run.stderr.suffix(2_000)) \(run.lines.suffix(8).map { $0.prefix(200) })")
        // The reconnect under way waits on the stopped server: its thread's pipe and its
        // socket, and never more than one such attempt.
        expectRecovered(outcome(run, otherTaps: 1), taps: 5, run, inFlight: 3)
        #expect(run.lines.filter { $0.contains("input: keys, text and buttons cannot be pressed") } == ["touchgest: warning: \(lost)"],
                "\(run.lines.suffix(8).map { $0.prefix(200) })")
    }
}
