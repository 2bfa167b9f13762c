import BusLoop
// Measures the focus provider and the window keys (docs/focus.md):
//
//   swift run -c release FocusBenchmark SWAYSOCK_PATH   # rig/headless-sway start FOLDER a b
//   swift run -c release FocusBenchmark --x11 DISPLAY WINDOW_A WINDOW_B
//                                                        # rig/headless-x11 start FOLDER a b
//   swift run -c release FocusBenchmark --gnome BUS      # rig/headless-gnome start FOLDER a b
//   swift run -c release FocusBenchmark --kde BUS SCRIPT # rig/headless-kwin start FOLDER a b,
//                                                        # then rig/headless-kwin place FOLDER b 2
//   swift run -c release FocusBenchmark                  # the rules' cost alone
//
// 1. With a sway socket: focus is moved between two windows 200 times with RUN_COMMAND
//    on a second connection; the time from sending the command to the provider reporting
//    the new focus is the latency a user's focus change has before gestures see it.
//    With --x11 the same, on a real X server with openbox: a second XCB connection sends
//    the _NET_ACTIVE_WINDOW client message a pager sends (xdotool windowactivate), and
//    openbox moves the focus. With --gnome, on a real GNOME Shell 43.9 with touchgest's
//    extension: a second connection asks the rig's test-only extension to activate the
//    window (Main.activateWindow), without waiting for its answer; the extension's
//    FocusChanged signal reaches the provider. With --kde, on a real KWin 5.27.5 running
//    touchgest's script: a second connection switches between virtual desktops 1 (window
//    a) and 2 (window b) with org.kde.KWin /KWin setCurrentDesktop, and the script's
//    WindowActivated call reaches the provider.
// 2. Always: the added cost per gesture of window keys, as the engine's time for one
//    touchpad swipe (begin, 10 updates, end) through 20 rules with no window keys, and
//    through the same 20 rules plus 20 rules for applications that sit out.
import BenchmarkSupport
import CXCB
import FocusProviders
import Glibc
import PollLoop
import Rulebook
import TouchGestures

func micros(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// The latency line for `samples` (microseconds) measured on `desktop`.
func printLatency(on desktop: String, _ samples: [Double]) {
    let sorted = samples.sorted()
    print("focus change -> provider knows it (\(desktop), \(sorted.count) changes): median \(Int(percentile(sorted, 0.5))) us, "
        + "p99 \(Int(percentile(sorted, 0.99))) us, max \(Int(sorted.last ?? 0)) us")
}

func request(_ fd: Int32, _ command: String) {
    let payload = Array(command.utf8)
    let bytes = Array("i3-ipc".utf8) + withUnsafeBytes(of: UInt32(payload.count)) { Array($0) }
        + withUnsafeBytes(of: UInt32(0)) { Array($0) } + payload
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
}

/// Moves the focus `count` times between the windows, alternately, with `move`, and times
/// each until `provider` reports the window named.
func measureLatency(_ provider: FocusProvider, windows: [WindowFocus], count: Int = 200, move: (Int) -> Void) -> [Double] {
    var last: WindowFocus?
    var wanted: WindowFocus?
    let loop = EventLoop()
    provider.onReport = {
        if case let .focused(focus) = $0 {
            last = focus
            if focus == wanted { loop.stop() }
        }
    }
    loop.add(provider)
    provider.start()
    // Until the provider has its first focus (KWin: the script loaded and run), at most 5 s.
    let ready = PollScheduler.now() + .seconds(5)
    while last == nil && PollScheduler.now() < ready { loop.run(until: min(ready, PollScheduler.now() + .milliseconds(50))) }
    var samples: [Double] = []
    for index in 0..<count {
        wanted = windows[index % windows.count]
        let start = PollScheduler.now()
        move(index % windows.count)
        // Stops the loop the moment the wanted focus is reported, so the time is the report's.
        while last != wanted && PollScheduler.now() < start + .seconds(2) { loop.run(until: start + .seconds(2)) }
        samples.append(micros(PollScheduler.now() - start))
    }
    return samples
}

if CommandLine.arguments.count == 5 && CommandLine.arguments[1] == "--x11" {
    let display = CommandLine.arguments[2]
    let windows = CommandLine.arguments[3...].map { UInt32($0) ?? 0 }
    var screenNumber: Int32 = 0
    let control = xcb_connect(display, &screenNumber)!
    guard xcb_connection_has_error(control) == 0 else { fatalError("cannot reach the X server at \(display)") }
    let root = xcb_setup_roots_iterator(xcb_get_setup(control)).data.pointee.root
    let name = "_NET_ACTIVE_WINDOW"
    let atom = xcb_intern_atom_reply(control, xcb_intern_atom(control, 0, UInt16(name.utf8.count), name), nil)!.pointee.atom
    let samples = measureLatency(X11FocusProvider(display: display),
                                 windows: [.window(appID: "a", title: "xterm"), .window(appID: "b", title: "xterm")]) { index in
        var message = xcb_client_message_event_t()
        message.response_type = UInt8(XCB_CLIENT_MESSAGE)
        message.format = 32
        message.window = windows[index]
        message.type = atom
        // Source 2: a pager, which openbox obeys at once (xdotool windowactivate sends it).
        message.data = xcb_client_message_data_t(data32: (2, 0, 0, 0, 0))
        withUnsafeBytes(of: &message) { bytes in
            _ = xcb_send_event(control, 0, root,
                               XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT.rawValue | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY.rawValue,
                               bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        xcb_flush(control)
    }
    printLatency(on: "Xvfb + openbox", samples)
} else if CommandLine.arguments.count >= 3 && ["--gnome", "--kde"].contains(CommandLine.arguments[1]) {
    let address = CommandLine.arguments[2]
    let control = try! BusClient(address: address)
    let environment = ["DBUS_SESSION_BUS_ADDRESS": address]
    if CommandLine.arguments[1] == "--gnome" {
        let samples = measureLatency(DBusFocusProvider(.gnome, environment: environment),
                                     windows: [.window(appID: "a", title: "a"), .window(appID: "b", title: "b")]) { index in
            control.send("org.gnome.Shell", "/org/touchgest/Rig", "org.touchgest.Rig", "Activate", [.string(["a", "b"][index])])
        }
        printLatency(on: "GNOME Shell 43.9 headless", samples)
    } else {
        let script = CommandLine.arguments.count > 3 ? CommandLine.arguments[3] : "data/kwin/touchgest-focus.js"
        let samples = measureLatency(DBusFocusProvider(.kde(script: script), environment: environment),
                                     windows: [.window(appID: "a", title: "a"), .window(appID: "b", title: "b")]) { index in
            control.send("org.kde.KWin", "/KWin", "org.kde.KWin", "setCurrentDesktop", [.int32(Int32(index + 1))])
        }
        printLatency(on: "KWin 5.27.5 headless", samples)
    }
} else if CommandLine.arguments.count > 1 {
    let path = CommandLine.arguments[1]
    // A second connection sends the commands; its replies are read and dropped.
    let control = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(control, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
    var drain = [UInt8](repeating: 0, count: 4096)
    let samples = measureLatency(SocketFocusProvider(wire: I3IPCWire(.sway, environment: ["SWAYSOCK": path])),
                                 windows: [.window(appID: "a", title: "foot"), .window(appID: "b", title: "foot")]) { index in
        _ = recv(control, &drain, drain.count, Int32(MSG_DONTWAIT))
        request(control, "[app_id=\(["a", "b"][index])] focus")
    }
    printLatency(on: "sway 1.7 headless", samples)
}

func rules(withApplications: Bool) -> String {
    var text = "[settings]\ndevice = \"touchpad\"\n"
    for index in 0..<20 {
        text += "[rule.g\(index)]\ngesture = \"\(index % 2 == 0 ? "swipe" : "pinch")\"\nfingers = \(3 + index / 2 % 3)\ncommand = \"true\"\n"
        if index % 2 == 0 { text += "direction = \"\(["left", "right", "up", "down"][index / 2 % 4])\"\n" }
    }
    if withApplications {
        for index in 0..<20 {
            text += "[rule.a\(index)]\ngesture = \"\(index % 2 == 0 ? "swipe" : "pinch")\"\nfingers = \(3 + index / 2 % 3)\napplication = \"app\(index)\"\ncommand = \"true\"\n"
            if index % 2 == 0 { text += "direction = \"\(["left", "right", "up", "down"][index / 2 % 4])\"\n" }
        }
    }
    return text
}

final class NoSink: CommandSink { func run(_ request: CommandRequest) {} }

func gestureCost(withApplications: Bool) -> Double {
    let book = try! Rulebook.parse(rules(withApplications: withApplications), file: "bench.toml")
    let scheduler = ManualScheduler()
    let environment = GestureEnvironment(scheduler: scheduler)
    let focus = FocusContext(.window(FocusedWindow(application: "foot", title: "~")))
    let sink = NoSink()
    let compiled = CompiledRulebook(book, sink: sink, focus: focus)
    compiled.attach(to: environment)
    var t: UInt64 = 0
    let rounds = 2_000
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for _ in 0..<rounds {
            environment.handle(.touchpad(TouchpadEvent(.swipeBegin(fingers: 3), timestamp: .milliseconds(t))))
            for step in 1...10 {
                environment.handle(.touchpad(TouchpadEvent(.swipeUpdate(fingers: 3, delta: Point(x: -4, y: 0)), timestamp: .milliseconds(t + UInt64(step) * 8))))
            }
            environment.handle(.touchpad(TouchpadEvent(.swipeEnd(fingers: 3, cancelled: false), timestamp: .milliseconds(t + 90))))
            t += 1_000
            scheduler.advance(to: .milliseconds(t))
        }
    }
    return micros(elapsed) / Double(rounds)
}

// The machine is shared: the least of 7 alternating runs is the cost without others' noise.
var plain = Double.infinity
var withApps = Double.infinity
for _ in 0..<7 {
    plain = min(plain, gestureCost(withApplications: false))
    withApps = min(withApps, gestureCost(withApplications: true))
}
func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}
print("one touchpad swipe (12 events) through 20 rules (least of 7 runs): \(oneDecimal(plain)) us; with 20 more rules for applications that sit out: \(oneDecimal(withApps)) us")
