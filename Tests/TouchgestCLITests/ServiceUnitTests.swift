import TestSupport
import Testing

/// The systemd user unit that `make install` ships.
@Suite struct ServiceUnitTests {
    /// `[Section]` -> its `Key=value` lines.
    static func sections() -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current = ""
        for line in readText("\(packageRoot)/examples/touchgest.service").split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") { current = String(line) } else { sections[current, default: []].append(String(line)) }
        }
        return sections
    }

    @Test func aFailedDaemonIsRestartedButACrashLoopIsBounded() {
        let unit = Self.sections()
        #expect(unit["[Service]", default: []].contains("Restart=on-failure"))
        // systemd reads the start limits in [Unit] only; in [Service] they would be ignored.
        #expect(unit["[Unit]", default: []].contains("StartLimitIntervalSec=60"))
        #expect(unit["[Unit]", default: []].contains("StartLimitBurst=5"))
    }

    /// `systemctl --user restart touchgest` (an upgrade, a restart after a failure) must
    /// not close the browser a swipe opened: every process a gesture starts lives in the
    /// unit's cgroup, which systemd's default kill mode ends whole. The daemon stops its
    /// stream commands itself at SIGTERM
    /// (`StreamHubTests.whatAStreamCommandLeftInTheBackgroundDoesNotOutliveShutdown`) and
    /// leaves rule commands alone, so the unit signals the daemon only.
    @Test func aStopOrRestartSignalsTheDaemonAloneSoWhatGesturesStartedRunsOn() {
        let service = Self.sections()["[Service]", default: []]
        #expect(service.filter { $0.hasPrefix("KillMode=") } == ["KillMode=process"])
    }

    /// `systemctl --user status touchgest` shows the unit's Documentation= pages; the
    /// daemon's manual must name the command that shows why it failed, and the unit must
    /// leave the daemon's log to the journal.
    @Test func theManualTheUnitNamesSaysHowToSeeWhyItFailed() {
        let unit = Self.sections()
        #expect(unit["[Unit]", default: []].contains("Documentation=man:touchgest(1) man:touchgest-rules(5)"))
        #expect(!unit["[Service]", default: []].contains { $0.hasPrefix("StandardError=") || $0.hasPrefix("StandardOutput=") })
        // In touchgest(1), under `run`: the text of RunCommand's discussion.
        let manual = readText("\(packageRoot)/man/touchgest.1")
        let afterRun = manual.split(separator: ".It Em run\n", maxSplits: 1).dropFirst().first ?? ""
        let run = afterRun.split(separator: ".It Em ", maxSplits: 1).first.map(String.init) ?? ""
        #expect(run.contains("journalctl --user -u touchgest shows why"), "\(run)")
    }
}
