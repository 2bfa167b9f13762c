import CommandRunner
import Glibc
import TestSupport
import Testing

let headlessSway = "\(packageRoot)/rig/headless-sway"

/// Rules for the focused window on a real sway 1.7 (headless, pixman, no input devices,
/// running as nobody: rig/headless-sway) with real foot terminals, focus moved with
/// swaymsg, and gestures from the real libinput on emulated devices.
@Suite(.serialized, .enabled(if: getuid() == 0, "sway runs as nobody, which only root can switch to"))
struct SwayFocusTests {
    @Test func theSameSwipeRunsADifferentCommandPerFocusedAppAndSurvivesSwayRestarting() throws {
        let sway = temporaryFolder()
        defer { _ = shellOutput("'\(headlessSway)' stop \(sway)") }
        let socket = try startDesktop("'\(headlessSway)' start \(sway) term-a term-b=Bee")
        #expect(socket == "\(sway)/runtime/sway-ipc.sock")
        let msg = "swaymsg -s \(socket)"
        let run = rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
            device touchpad
            await focus: term-b "Bee"
            \(FocusRules.swipe)
            tap 2 at 50,35
            wait 400ms
            shell \(msg) '[app_id=term-a] focus' > /dev/null
            await focus: term-a "foot"
            \(FocusRules.swipe)
            tap 2 at 50,35
            wait 400ms
            shell \(msg) 'workspace 2' > /dev/null
            await focus: no window
            \(FocusRules.swipe)
            shell '\(headlessSway)' stop \(sway)
            await focus: unavailable: sway closed the connection
            \(FocusRules.swipe)
            shell '\(headlessSway)' start \(sway) term-a=Again > /dev/null
            await focus: term-a "Again"
            \(FocusRules.swipe)
            """, arguments: "run -v --allow-root --focus sway", extra: "--merge-stderr --signal TERM --ready 'device added'",
            wrapper: "env SWAYSOCK=\(socket)")
        #expect(run.status == 0, "\(run)")
        #expect(readText("\(run.folder)/out").split(separator: "\n") == [
            "general term-b",
            "term-a-tab term-a foot",
            "not-b term-a",
            "general ",
            // sway is gone: the general rule still fires, without TOUCHGEST_APP.
            "general ",
            "term-a-tab term-a Again",
        ], "\(run)")
        // Why the rules for applications could not fire is said once, not per gesture.
        #expect(run.lines.filter { $0.contains("rules with an application or title condition do not fire") }.count == 1, "\(run)")
    }

    @Test func debugShowsTheFocusAsItChangesAndWhichRulesSitOut() throws {
        let sway = temporaryFolder()
        defer { _ = shellOutput("'\(headlessSway)' stop \(sway)") }
        let socket = try startDesktop("'\(headlessSway)' start \(sway) term-a term-b=Bee")
        let run = rig(devices: ["touchpad"], rules: FocusRules.rules, script: """
            device touchpad
            await focus: term-b "Bee"
            \(FocusRules.swipe)
            shell swaymsg -s \(socket) '[app_id=term-a] focus' > /dev/null
            await focus: term-a "foot"
            shell swaymsg -s \(socket) 'workspace 2' > /dev/null
            await focus: no window
            """, arguments: "debug --focus sway", extra: "--signal TERM --ready 'device added'",
            wrapper: "env SWAYSOCK=\(socket)")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.filter { $0.hasPrefix("focus:") || $0.contains("sits out") } == [
            "focus: connected to sway at \(socket)",
            "focus: term-b \"Bee\"",
            "terminal-a-tab sits out: the focused window is term-b \"Bee\"; the rule wants application \"term-a\"",
            "focus: term-a \"foot\"",
            "focus: no window",
        ], "\(run)")
        #expect(run.decisions.contains("next-workspace possible -> recognized"), "\(run)")
    }
}
