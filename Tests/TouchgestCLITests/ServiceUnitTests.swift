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

    @Test func theUnitSaysHowToSeeWhyItFailed() {
        #expect(readText("\(packageRoot)/examples/touchgest.service").contains("journalctl --user -u touchgest"))
    }
}
