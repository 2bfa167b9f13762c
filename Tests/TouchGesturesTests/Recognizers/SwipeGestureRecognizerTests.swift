import Testing
@testable import TouchGestures

@Suite struct SwipeGestureRecognizerTests {
    @Test func isRecognizedWhileTheFingerStillMoves() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        // 30 mm right over 100 ms in 10 frames: the 9 mm minimum is crossed at frame 3 (t = 30).
        rig.run(drag([1], from: (50, 50), by: (30, 0), t: 0, duration: 100))
        #expect(rig.log == ["30 swipe possible -> recognized", "30 action swipe recognized"])
        #expect(swipe.recognizedDirection == .right)
    }

    @Test(arguments: [
        ((30.0, 0.0), SwipeDirection.right), ((-30.0, 0.0), .left), ((0.0, -30.0), .up), ((0.0, 30.0), .down),
        ((30.0, -30.0), .upRight), ((-30.0, -30.0), .upLeft), ((30.0, 30.0), .downRight), ((-30.0, 30.0), .downLeft),
    ])
    func eachOfTheEightDirections(by: (Double, Double), expected: SwipeDirection) {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .all
        rig.run(drag([1], from: (100, 100), by: by, t: 0, duration: 100))
        #expect(swipe.recognizedDirection == expected)
        #expect(rig.log.contains { $0.hasSuffix(" swipe possible -> recognized") })
    }

    @Test func aDirectionNotAllowedFails() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .left
        rig.run(drag([1], from: (50, 50), by: (30, 0), t: 0, duration: 100))
        #expect(rig.log == ["30 swipe possible -> failed"])
    }

    @Test func withoutDiagonalsA40DegreeSwipeCountsAsRight() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .cardinal
        rig.run(drag([1], from: (50, 100), by: (30, -25), t: 0, duration: 100))
        #expect(swipe.recognizedDirection == .right)
    }

    @Test func distanceJustUnderTheMinimumIsNotASwipe() {
        let rig = Rig()
        rig.add(SwipeGestureRecognizer(), "swipe")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (58.99, 50), t: 50), .up(1, t: 60)])
        #expect(rig.log == ["60 swipe possible -> failed"])
    }

    @Test func byDefaultSpeedDoesNotMatter() {
        // 15 mm over a whole second: slow, but nothing competes, so it is a swipe.
        let rig = Rig()
        rig.add(SwipeGestureRecognizer(), "swipe")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (55, 50), t: 500), .move(1, to: (65, 50), t: 1000)])
        #expect(rig.log == ["1000 swipe possible -> recognized", "1000 action swipe recognized"])
    }

    @Test func recentSpeedJustOverTheMinimumSwipes() {
        // A slow start, then 8 mm in the last 100 ms: 80.0 mm/s recent, whatever came before.
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.minimumVelocity = 80
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (57, 50), t: 900), .move(1, to: (65, 50), t: 1000)])
        #expect(rig.log == ["1000 swipe possible -> recognized", "1000 action swipe recognized"])
    }

    @Test func recentSpeedJustUnderTheMinimumFails() {
        // 7.9 mm in the last 100 ms is 79 mm/s.
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.minimumVelocity = 80
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (57.1, 50), t: 900), .move(1, to: (65, 50), t: 1000)])
        #expect(rig.log == ["1000 swipe possible -> failed"])
    }

    @Test func threeFingersSwipeTogetherAndAFourthFails() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "three")
        swipe.numberOfTouchesRequired = 3
        rig.run(drag([1, 2, 3], from: (20, 50), by: (0, 30), t: 0, duration: 100) + [.wait(t: 1000)])
        #expect(rig.log == ["30 three possible -> failed"])
        swipe.direction = .down
        rig.log.removeAll()
        rig.run(drag([4, 5, 6], from: (20, 50), by: (0, 30), t: 2000, duration: 100))
        #expect(rig.log == ["2030 three possible -> recognized", "2030 action three recognized"])
        rig.log.removeAll()
        rig.run([.down(7, at: (20, 50), t: 3000), .down(8, at: (40, 50), t: 3000), .down(9, at: (60, 50), t: 3000),
                 .down(10, at: (80, 50), t: 3010)])
        #expect(rig.log == ["3010 three possible -> failed"])
    }

    @Test func aTouchpadSwipeUsesTheFingerCountAndDeltas() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "four-left")
        swipe.numberOfTouchesRequired = 4
        swipe.direction = .left
        rig.run([.pad(.swipeBegin(fingers: 4), t: 0)]
            + (1...6).map { .pad(.swipeUpdate(fingers: 4, delta: Point(x: -4, y: 0.2)), t: UInt64($0) * 10) }
            + [.pad(.swipeEnd(fingers: 4, cancelled: false), t: 70)])
        // The touchpad distance is 7 mm: crossed at the second update.
        #expect(rig.log == ["20 four-left possible -> recognized", "20 action four-left recognized"])
    }

    @Test func aTouchpadSwipeWithOtherFingersFails() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "four")
        swipe.numberOfTouchesRequired = 4
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0), .pad(.swipeEnd(fingers: 3, cancelled: false), t: 70)])
        #expect(rig.log == ["0 four possible -> failed"])
    }
}

@Suite struct SwipeSectorTests {
    @Test func aCardinalSwipeWithEightSectorsLeavesADiagonalToTheDiagonalRecognizer() {
        let rig = Rig()
        let up = rig.add(SwipeGestureRecognizer(), "up")
        up.direction = .up
        let upRight = rig.add(SwipeGestureRecognizer(), "up-right")
        upRight.direction = .upRight
        rig.run(drag([1], from: (100, 100), by: (30, -30), t: 0, duration: 100))
        // With automatic sectors "up" owns 90 degrees and takes the diagonal first.
        #expect(rig.log.first == "30 up possible -> recognized")
        up.sectors = .eight
        rig.log.removeAll()
        rig.run(drag([2], from: (100, 100), by: (30, -30), t: 1000, duration: 100))
        #expect(rig.log.prefix(2) == ["1030 up possible -> failed", "1030 up-right possible -> recognized"])
    }
}

/// When a drag competes, a swipe must be moving fast the way it went.
@Suite struct SwipeAgainstDragTests {
    @Test func aWobbleThenAQuickMoveElsewhereIsNotASwipe() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .all
        swipe.minimumVelocity = 50
        // 6 mm down slowly, then left at 100 mm/s: 9 mm from the start it is heading
        // down-left, but moving left.
        rig.run([.down(1, at: (100, 100), t: 0), .move(1, to: (100, 106), t: 500), .move(1, to: (97, 106), t: 530),
                 .move(1, to: (94, 106), t: 560), .move(1, to: (91, 106), t: 590), .move(1, to: (88, 106), t: 620)])
        #expect(rig.log == ["590 swipe possible -> failed"])
    }

    @Test func aQuickMoveTheWayItWentIsASwipe() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .all
        swipe.minimumVelocity = 50
        rig.run([.down(1, at: (100, 100), t: 0), .move(1, to: (97, 100), t: 30), .move(1, to: (94, 100), t: 60),
                 .move(1, to: (91, 100), t: 90)])
        #expect(rig.log == ["90 swipe possible -> recognized", "90 action swipe recognized"])
        #expect(swipe.recognizedDirection == .left)
    }
}
