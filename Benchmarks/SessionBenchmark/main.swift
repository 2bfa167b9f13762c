// Measures how soon touchgest refuses gestures once the screen is locked (docs/session.md):
//
//   scripts/measure-session      # starts the private bus and the logind stand-in, then this
//   swift run -c release SessionBenchmark SYSTEM_BUS_ADDRESS   # rig/session-buses bus FOLDER system; logind FOLDER c1
//
// 1. A second connection calls the session's SetLockedHint(true), then (false), as a
//    desktop's locker does, 200 times each; the time from sending the call to the
//    session-state source reporting the new state is how long a gesture can still act
//    after the desktop said it locked. The stand-in is python3-dbusmock's logind
//    template, so its Python share (taking the call, sending PropertiesChanged) is in the
//    number; logind itself is C.
// 2. What follows in the daemon at that report: turning off the rules a locked screen
//    keeps out (CompiledRulebook.admit) for 20 rules, after which the next gesture's first
//    event reaches no recognizer of theirs.
import BenchmarkSupport
import CDBus
import Glibc
import PollLoop
import Rulebook
import SessionState
import TouchGestures

func micros(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func line(_ what: String, _ samples: [Double]) {
    let sorted = samples.sorted()
    say("\(what) (\(sorted.count) changes): median \(Int(percentile(sorted, 0.5))) us, p90 \(Int(percentile(sorted, 0.9))) us, "
        + "p99 \(Int(percentile(sorted, 0.99))) us, max \(Int(sorted.last ?? 0)) us")
}

/// A plain libdbus connection, as a desktop's locker has: it sends SetLockedHint.
func desktopConnection(_ address: String) -> OpaquePointer {
    var error = DBusError()
    dbus_error_init(&error)
    guard let bus = dbus_connection_open_private(address, &error), dbus_bus_register(bus, &error) != 0 else {
        say("SessionBenchmark: cannot reach \(address)")
        exit(1)
    }
    return bus
}

func setLockedHint(_ bus: OpaquePointer, _ locked: Bool) {
    guard let message = dbus_message_new_method_call("org.freedesktop.login1", "/org/freedesktop/login1/session/c1",
                                                     "org.freedesktop.login1.Session", "SetLockedHint") else { return }
    defer { dbus_message_unref(message) }
    var value: UInt32 = locked ? 1 : 0
    var iterator = DBusMessageIter()
    dbus_message_iter_init_append(message, &iterator)
    _ = dbus_message_iter_append_basic(&iterator, Int32(CDBUS_TYPE_BOOLEAN), &value)
    dbus_message_set_no_reply(message, 1)
    dbus_connection_send(bus, message, nil)
    dbus_connection_flush(bus)
}

let arguments = CommandLine.arguments.dropFirst()
if let address = arguments.first {
    let monitor = SessionMonitor(environment: ["DBUS_SYSTEM_BUS_ADDRESS": address, "DBUS_SESSION_BUS_ADDRESS": "", "XDG_SESSION_ID": "c1"])
    let loop = EventLoop()
    var following = false
    var reportedAt: Timestamp?
    monitor.onReport = { report in
        switch report {
        case .following: following = true
        case .changed, .changedQuietly: reportedAt = PollScheduler.now()
        case .missing, .unsaid: break
        }
        loop.stop()
    }
    loop.add(monitor)
    monitor.start()
    let end = PollScheduler.now() + .seconds(10)
    while !following && PollScheduler.now() < end { loop.run(until: end) }
    guard following else {
        say("SessionBenchmark: logind did not answer on \(address)")
        exit(1)
    }
    let desktop = desktopConnection(address)
    var samples: [Double] = []
    for index in 0..<400 {
        reportedAt = nil
        let sent = PollScheduler.now()
        setLockedHint(desktop, index % 2 == 0)
        let deadline = sent + .seconds(5)
        while reportedAt == nil && PollScheduler.now() < deadline { loop.run(until: deadline) }
        guard let reportedAt else {
            say("SessionBenchmark: no report for change \(index)")
            exit(1)
        }
        samples.append(micros(reportedAt - sent))
        // Let the stand-in's answer traffic settle, as a desktop locks at most every few seconds.
        loop.run(until: PollScheduler.now() + .milliseconds(5))
    }
    line("SetLockedHint sent -> session state reported (logind stand-in, python3-dbusmock)", samples)
}

// The daemon's share: admitting by the new state, 20 rules.
var text = ""
for index in 0..<20 {
    text += "[rule.r\(index)]\ngesture = \"swipe\"\nfingers = \(3 + index % 2)\ndevice = \"touchpad\"\ndirection = \"\(["left", "right", "up", "down"][index % 4])\"\ncommand = \"true\"\n"
    if index % 5 == 0 { text += "when-locked = true\n" }
    text += "\n"
}
let compiled = CompiledRulebook(try! Rulebook.parse(text, file: "bench.toml"), sink: NoSink())
let environment = GestureEnvironment(scheduler: ManualScheduler())
compiled.attach(to: environment)
var admitting: [Double] = []
for index in 0..<2_000 {
    let start = PollScheduler.now()
    compiled.admit(index % 2 == 0 ? .whenLocked : .every)
    admitting.append(micros(PollScheduler.now() - start))
}
line("admitting the rules a new state lets act, 20 rules", admitting)

final class NoSink: CommandSink {
    func run(_ request: CommandRequest) {}
}
