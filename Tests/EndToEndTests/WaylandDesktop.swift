import Glibc
import TestSupport
import Testing

/// A real Wayland desktop that tells the focus over D-Bus (GNOME Shell with touchgest's
/// extension: rig/headless-gnome; KWin: rig/headless-kwin), started once for a suite by
/// its ``WaylandDesktop/Scope`` trait and stopped after its last test. Each test starts
/// from the same state (``prepare()``): the desktop running with the windows term-a
/// "Alpha" and term-b "Bee", term-b focused, the extension enabled.
final class WaylandDesktop: @unchecked Sendable {
    /// The desktop the running suite shares.
    @TaskLocal static var current: WaylandDesktop?

    /// The rig script.
    let rig: String
    /// The rig's folder: buses, logs, nobody's home.
    let folder: String
    /// The session bus address the rig printed.
    private(set) var address = ""
    /// The windows every test starts with.
    static let windows = "term-a=Alpha term-b=Bee"
    /// Whether the desktop runs with ``windows`` and nothing a test changed that
    /// ``prepare()`` cannot undo without a restart.
    private var standard = false

    init(rig: String) {
        self.rig = "\(packageRoot)/rig/\(rig)"
        folder = temporaryFolder()
        chmod(folder, 0o755)  // the desktop runs as nobody under it
    }

    /// `rig ACTION FOLDER ARGUMENTS`, as a line for a rig script's `shell` step.
    func command(_ action: String, _ arguments: String = "") -> String {
        "'\(rig)' \(action) \(folder) \(arguments)"
    }

    /// Runs `rig ACTION FOLDER ARGUMENTS` to its end.
    @discardableResult
    func run(_ action: String, _ arguments: String = "") -> String {
        shellOutput(command(action, arguments))
    }

    /// Starts the desktop with ``windows``; throws the rig's complaint when it does not start.
    /// KWin offers its fake input to the touchgest under test, and touchgest's GNOME
    /// Shell extension takes its keys and actions.
    func start() throws {
        address = try startDesktop("KWIN_FAKE_INPUT_FOR='\(touchgestBinary)' TOUCHGEST_TRUSTED='\(touchgestBinary)' "
                                   + command("start", Self.windows))
        standard = true
    }

    /// A test changed the windows or the desktop itself: the next ``prepare()`` starts it again.
    func changed() {
        standard = false
    }

    /// The state every test starts from.
    func prepare() throws {
        if !standard {
            run("kill")
            try start()
        }
        if rig.hasSuffix("gnome") {
            run("enable")
            run("workspace", "0")
        } else {
            run("desktop", "1")
        }
        run("title", "term-a Alpha")
        run("title", "term-b Bee")
        run("focus", "term-b")
    }

    /// Runs `body`, one rig run against this desktop. About 1 run in 150 under heavy load
    /// loses its stream at a repaired partial read (shared/TESTING.md, pitfall 11): when
    /// `accept` rejects a run that needed one, the desktop is started afresh and the run
    /// made once more, and the retry is reported, as ``rig(devices:rules:script:arguments:extra:files:passRules:wrapper:accept:)``
    /// does for runs that need no desktop. A run that fails without a repair fails.
    func run(accepting accept: (RigRun) -> Bool, _ body: () -> RigRun) throws -> RigRun {
        let first = body()
        guard !accept(first), first.repairedReads else { return first }
        print("touchgest e2e: a run on \(rig) needed a repaired read and did not match; starting the desktop afresh and running it once more")
        changed()
        try prepare()
        return body()
    }

    /// `touchgest doctor`'s output lines for `rules`, run in `session` (the variables a
    /// session on this desktop sets) with a home of its own.
    func doctor(_ rules: String, session: String) -> [String] {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", rules.replacing("$FOLDER", with: folder))
        return shellOutput("\(session) HOME=\(folder) '\(touchgestBinary)' doctor --device /dev/null --rules \(folder)/rules.toml 2>&1")
            .split(separator: "\n").map(String.init)
    }

    /// The lines of the file `out` in `run`'s folder, which the rules' commands write.
    static func out(_ run: RigRun) -> [String] {
        readText("\(run.folder)/out").split(separator: "\n").map(String.init)
    }

    /// Starts a desktop for the suite it is applied to, and stops it after the suite.
    struct Scope: SuiteTrait, TestScoping {
        let rig: String

        func scopeProvider(for test: Test, testCase: Test.Case?) -> Scope? {
            test.isSuite ? self : nil
        }

        func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
            let desktop = WaylandDesktop(rig: rig)
            defer { desktop.run("stop") }
            // A desktop that does not start fails the suite's tests; it never skips them.
            try desktop.start()
            try await WaylandDesktop.$current.withValue(desktop) {
                try await function()
            }
        }
    }
}

extension Trait where Self == WaylandDesktop.Scope {
    /// The suite's tests share one desktop started by `rig` (rig/headless-gnome, rig/headless-kwin).
    static func desktop(_ rig: String) -> Self { WaylandDesktop.Scope(rig: rig) }
}
