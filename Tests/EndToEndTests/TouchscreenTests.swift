import TestSupport
import Testing

/// Touchscreen gestures through the real libinput on an emulated 300x200 mm, 10-slot touchscreen.
@Suite(.serialized) struct TouchscreenTests {
    @Test func tapDoubleTapAndLongPress() {
        let expected = ["single possible -> recognized", "double possible -> recognized",
                        "press possible -> began", "press began -> ended"]
        let run = rig(devices: ["touchscreen"], rules: """
            [settings]
            device = "touchscreen"

            [rule.single]
            gesture = "tap"
            command = "true"

            [rule.double]
            gesture = "tap"
            taps = 2
            command = "true"

            [rule.press]
            gesture = "long-press"
            command = "true"
            """, script: """
            device touchscreen
            tap 1 at 150,100
            wait 600ms
            tap 1 at 150,100
            wait 100ms
            tap 1 at 151,100
            wait 600ms
            hold 1 at 150,100 for 800ms
            wait 300ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
    }

    @Test func aSwipeInEachOfTheEightDirections() {
        let moves: [(String, String)] = [
            ("right", "60,0"), ("up-right", "45,-45"), ("up", "0,-60"), ("up-left", "-45,-45"),
            ("left", "-60,0"), ("down-left", "-45,45"), ("down", "0,60"), ("down-right", "45,45"),
        ]
        let rules = moves.map { name, _ in
            "[rule.\(name)]\ngesture = \"swipe\"\ndirection = \"\(name)\"\ndevice = \"touchscreen\"\ncommand = \"true\"\n"
        }.joined(separator: "\n")
        let script = "device touchscreen\n" + moves.map { "touch 1 at 150,100 move \($0.1) over 150ms\nwait 200ms\n" }.joined()
        let expected = moves.map { "\($0.0) possible -> recognized" }
        let run = rig(devices: ["touchscreen"], rules: rules, script: script) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
    }

    @Test func pinchAndRotationWithTwoFingers() {
        let expected = ["zoom possible -> began", "zoom changed -> ended", "turn possible -> began", "turn changed -> ended"]
        let run = rig(devices: ["touchscreen"], rules: """
            [settings]
            device = "touchscreen"

            [rule.zoom]
            gesture = "pinch"
            step = 0.5
            on-step = "true"

            [rule.turn]
            gesture = "rotation"
            step = 30
            on-step = "true"
            """, script: """
            device touchscreen
            pinch 2 at 150,100 from 40 to 100 over 300ms
            wait 300ms
            rotate 2 at 150,100 radius 30 by 95 over 400ms
            wait 300ms
            """) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        // 40 to 100 mm is a scale of 2.5: three steps out. 95 degrees clockwise: three steps.
        #expect(run.commands == ["zoom step 1 out", "zoom step 2 out", "zoom step 3 out",
                                 "turn step 1 clockwise", "turn step 2 clockwise", "turn step 3 clockwise"])
    }

    @Test func anEdgePanFromEachEdge() {
        let edges: [(String, String, String)] = [
            ("left", "3,100", "50,0"), ("right", "297,100", "-50,0"), ("top", "150,3", "0,50"), ("bottom", "150,197", "0,-50"),
        ]
        let rules = edges.map { edge, _, _ in
            "[rule.from-\(edge)]\ngesture = \"edge-pan\"\nedges = \"\(edge)\"\ndevice = \"touchscreen\"\non-end = \"true\"\n"
        }.joined(separator: "\n")
        let script = "device touchscreen\n" + edges.map { "touch 1 at \($0.1) move \($0.2) over 200ms\nwait 200ms\n" }.joined()
        let expected = edges.flatMap { ["from-\($0.0) possible -> began", "from-\($0.0) changed -> ended"] }
        let run = rig(devices: ["touchscreen"], rules: rules, script: script) { $0.decisions == expected }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.decisions == expected)
        // Each end carries its net direction: away from its edge.
        let inward = ["left": "right", "right": "left", "top": "down", "bottom": "up"]
        #expect(run.commands == edges.map { "from-\($0.0) end \(inward[$0.0]!)" })
    }
}
