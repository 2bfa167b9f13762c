import Testing
@testable import TouchGestures

@Suite struct ScreenEdgePanGestureRecognizerTests {
    @Test(arguments: [
        (RectEdge.left, (3.0, 100.0), (40.0, 0.0)), (.right, (297.0, 100.0), (-40.0, 0.0)),
        (.top, (150.0, 2.0), (0.0, 40.0)), (.bottom, (150.0, 199.0), (0.0, -40.0)),
    ])
    func beginsFromEachEdgeMovingInward(edge: RectEdge, start: (Double, Double), by: (Double, Double)) {
        let rig = Rig()
        let edgePan = rig.add(ScreenEdgePanGestureRecognizer(), "edge")
        edgePan.edges = .all
        rig.run(drag([1], from: start, by: by, t: 0, duration: 100))
        #expect(rig.log.first == "10 edge possible -> began")
        #expect(rig.log.last == "100 action edge ended")
        #expect(edgePan.startEdge == edge)
    }

    @Test func aTouchJustInsideTheZoneBeginsAndJustOutsideFails() {
        let rig = Rig()
        let edgePan = rig.add(ScreenEdgePanGestureRecognizer(), "edge")
        edgePan.edges = .left
        rig.run(drag([1], from: (8, 100), by: (40, 0), t: 0, duration: 100))
        #expect(rig.log.first == "10 edge possible -> began")
        rig.log.removeAll()
        rig.run(drag([2], from: (8.01, 100), by: (40, 0), t: 1000, duration: 100))
        #expect(rig.log == ["1000 edge possible -> failed"])
    }

    @Test func movingAlongTheEdgeFails() {
        let rig = Rig()
        let edgePan = rig.add(ScreenEdgePanGestureRecognizer(), "edge")
        edgePan.edges = .left
        rig.run(drag([1], from: (2, 100), by: (2, 40), t: 0, duration: 100))
        #expect(rig.log == ["10 edge possible -> failed"])
    }

    @Test func anEdgeNotAskedForFails() {
        let rig = Rig()
        let edgePan = rig.add(ScreenEdgePanGestureRecognizer(), "edge")
        edgePan.edges = .right
        rig.run(drag([1], from: (2, 100), by: (40, 0), t: 0, duration: 100))
        #expect(rig.log == ["0 edge possible -> failed"])
    }

    @Test func touchpadGesturesNeverReachIt() {
        let rig = Rig()
        let edgePan = rig.add(ScreenEdgePanGestureRecognizer(), "edge")
        edgePan.edges = .all
        rig.run([.pad(.swipeBegin(fingers: 1), t: 0), .pad(.swipeUpdate(fingers: 1, delta: Point(x: 30, y: 0)), t: 10)])
        #expect(rig.log.isEmpty)
    }
}
