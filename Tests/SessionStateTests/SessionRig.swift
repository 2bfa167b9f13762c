import BusLoop
import Glibc
import PollLoop
import TestSupport
import TouchGestures
@testable import SessionState

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

/// rig/session-buses: private buses with a stand-in for logind (python3-dbusmock's
/// template) and for the screensavers.
struct Buses {
    static let script = "\(packageRoot)/rig/session-buses"
    let folder = temporaryFolder()

    @discardableResult
    func run(_ arguments: String) -> String {
        shell("'\(Self.script)' \(arguments.replacing("FOLDER", with: folder)) 2>> \(folder)/rig.err")
    }

    /// Starts the bus and returns its address.
    func start(_ name: String) -> String { run("bus FOLDER \(name)") }

    func stopAll() {
        run("stop-bus FOLDER system")
        run("stop-bus FOLDER session")
    }
}

/// A session monitor in a loop of its own, with every report it made.
final class MonitorRig {
    let loop = EventLoop()
    let monitor: SessionMonitor
    var reports: [SessionReport] = []

    init(_ environment: [String: String], connectTimeout: Duration = BusDefaults.connectTimeout,
         callTimeout: Duration = BusDefaults.callTimeout, changeWindow: Duration = SessionDefaults.changeWindow) {
        monitor = SessionMonitor(environment: environment, connectTimeout: connectTimeout, callTimeout: callTimeout,
                                 changeWindow: changeWindow)
        monitor.onReport = { [unowned self] in reports.append($0) }
        loop.add(monitor)
        monitor.start()
    }

    /// Runs the loop until `count` reports in all (or five seconds pass: a test that
    /// fails then shows what came).
    @discardableResult
    func run(untilReports count: Int) -> [SessionReport] {
        let deadline = PollScheduler.now() + .seconds(5)
        while reports.count < count && PollScheduler.now() < deadline {
            loop.run(until: min(deadline, PollScheduler.now() + .milliseconds(20)))
        }
        return reports
    }

    /// Runs the loop until the monitor has settled (both sides known, nothing asked).
    func runUntilSettled() {
        let deadline = PollScheduler.now() + .seconds(5)
        while !monitor.isSettled && PollScheduler.now() < deadline {
            loop.run(until: min(deadline, PollScheduler.now() + .milliseconds(20)))
        }
    }

    /// The states reported, as text.
    var states: [String] {
        reports.compactMap { if case let .changed(state) = $0 { state.description } else { nil } }
    }
}
