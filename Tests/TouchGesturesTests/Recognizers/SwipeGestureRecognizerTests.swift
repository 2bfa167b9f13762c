import Testing
@testable import TouchGestures

@Suite struct SwipeGestureRecognizerTests {
    @Test func isRecognizedWhileTheFingerStillMoves() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        // 30 mm right over 100 ms in 10 frames, 300 mm/s: a flick once past 5 mm, at frame 2 (t = 20).
        rig.run(drag([1], from: (50, 50), by: (30, 0), t: 0, duration: 100))
        #expect(rig.log == ["20 swipe possible -> recognized", "20 action swipe recognized"])
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
        #expect(rig.log == ["20 swipe possible -> failed"])
    }

    @Test func withoutDiagonalsA40DegreeSwipeCountsAsRight() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .cardinal
        rig.run(drag([1], from: (50, 100), by: (30, -25), t: 0, duration: 100))
        #expect(swipe.recognizedDirection == .right)
    }

    @Test func distanceJustUnderTheMinimumIsNotASwipe() {
        // 8.99 mm over 300 ms: 30 mm/s, too slow for a flick.
        let rig = Rig()
        rig.add(SwipeGestureRecognizer(), "swipe")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (54, 50), t: 200), .move(1, to: (58.99, 50), t: 300), .up(1, t: 310)])
        #expect(rig.log == ["310 swipe possible -> failed"])
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
        #expect(rig.log == ["20 three possible -> failed"])
        swipe.direction = .down
        rig.log.removeAll()
        rig.run(drag([4, 5, 6], from: (20, 50), by: (0, 30), t: 2000, duration: 100))
        #expect(rig.log == ["2020 three possible -> recognized", "2020 action three recognized"])
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

/// A quick swipe counts sooner than a slow one: a flick of 5 mm at 80 mm/s.
@Suite struct FlickTests {
    @Test func aTouchpadFlickShorterThanTheDistanceSwipes() {
        // 6 mm of libinput's deltas in 30 ms (the flick's start went before libinput decided):
        // 5 mm is crossed at 25 ms, at 200 mm/s.
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "three-right")
        swipe.numberOfTouchesRequired = 3
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0)]
            + (1...6).map { .pad(.swipeUpdate(fingers: 3, delta: Point(x: 1, y: 0.05)), t: UInt64($0) * 5) }
            + [.pad(.swipeEnd(fingers: 3, cancelled: false), t: 40)])
        #expect(rig.log == ["25 three-right possible -> recognized", "25 action three-right recognized"])
    }

    @Test func aTouchscreenFlickJustOverTheSpeedSwipes() {
        // The finger rests, then goes 5 mm in 61 ms: 82 mm/s over the last 100 ms.
        let rig = Rig()
        rig.add(SwipeGestureRecognizer(), "swipe")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (50, 50), t: 49), .move(1, to: (55, 50), t: 110), .up(1, t: 120)])
        #expect(rig.log == ["110 swipe possible -> recognized", "110 action swipe recognized"])
    }

    @Test func aShortMoveJustUnderTheSpeedIsNoFlick() {
        // 5 mm in 64 ms: 78 mm/s, and short of the 9 mm a slower swipe needs.
        let rig = Rig()
        rig.add(SwipeGestureRecognizer(), "swipe")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (50, 50), t: 46), .move(1, to: (55, 50), t: 110), .up(1, t: 120)])
        #expect(rig.log == ["120 swipe possible -> failed"])
    }

    @Test func aQuickMoveUnderFiveMillimetresIsNoFlick() {
        let rig = Rig()
        rig.add(SwipeGestureRecognizer(), "swipe")
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (54.9, 50), t: 20), .up(1, t: 30)])
        #expect(rig.log == ["30 swipe possible -> failed"])
    }

    @Test func aFlickTheWrongWayFails() {
        let rig = Rig()
        let swipe = rig.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = .left
        rig.run([.down(1, at: (50, 50), t: 0), .move(1, to: (53, 50), t: 20), .move(1, to: (56, 50), t: 40), .up(1, t: 50)])
        #expect(rig.log == ["40 swipe possible -> failed"])
    }
}

/// A swipe that points near a boundary between two directions waits to see which way it goes.
@Suite struct SwipeAimingTests {
    @Test func aCurvedSwipeIsJudgedOnceItTurnsClearlyOneWay() {
        // It leaves 60 degrees below the right (down's side of the boundary), then turns right:
        // at 10 mm it points 45 degrees off (near the boundary); at 15.6 mm, 26 degrees.
        let rig = Rig()
        let right = rig.add(SwipeGestureRecognizer(), "right")
        let down = rig.add(SwipeGestureRecognizer(), "down")
        down.direction = .down
        rig.run([.down(1, at: (100, 100), t: 0), .move(1, to: (102.5, 104.3), t: 30), .move(1, to: (107.1, 107.1), t: 60),
                 .move(1, to: (114, 107), t: 90), .move(1, to: (120, 107), t: 120), .up(1, t: 150)])
        #expect(rig.log == ["90 down possible -> failed", "90 right possible -> recognized", "90 action right recognized"])
        #expect(right.recognizedDirection == .right)
    }

    @Test func aSwipeThatLiftsNearABoundaryIsJudgedWhereItEnded() {
        // A straight swipe 44 degrees below the right: right, by a hair, once the finger lifts.
        let rig = Rig()
        let right = rig.add(SwipeGestureRecognizer(), "right")
        rig.run(drag([1], from: (100, 100), by: (20, 19.3), t: 0, duration: 100))
        #expect(rig.log == ["100 right possible -> recognized", "100 action right recognized"])
        #expect(right.recognizedDirection == .right)
    }

    @Test func aTouchpadSwipeThatEndsNearABoundaryIsJudgedAtItsEnd() {
        let rig = Rig()
        let up = rig.add(SwipeGestureRecognizer(), "up")
        up.numberOfTouchesRequired = 3
        up.direction = .up
        rig.run([.pad(.swipeBegin(fingers: 3), t: 0)]
            + (1...5).map { .pad(.swipeUpdate(fingers: 3, delta: Point(x: 2.4, y: -2.5)), t: UInt64($0) * 10) }
            + [.pad(.swipeEnd(fingers: 3, cancelled: false), t: 60)])
        #expect(rig.log == ["60 up possible -> recognized", "60 action up recognized"])
    }

    @Test func anAimingSwipeThatIsCancelledFails() {
        let rig = Rig()
        rig.add(SwipeGestureRecognizer(), "right")
        rig.run(drag([1], from: (100, 100), by: (20, 19.3), t: 0, duration: 100, lift: false) + [.cancel(1, t: 120)])
        #expect(rig.log == ["120 right possible -> failed"])
    }
}

@Suite struct SwipeSectorTests {
    @Test func aCardinalSwipeWithEightSectorsLeavesADiagonalToTheDiagonalRecognizer() {
        let rig = Rig()
        let up = rig.add(SwipeGestureRecognizer(), "up")
        up.direction = .up
        let upRight = rig.add(SwipeGestureRecognizer(), "up-right")
        upRight.direction = .upRight
        // 60 degrees above the right: clearly up in four sectors, clearly up-right in eight.
        rig.run(drag([1], from: (100, 100), by: (15, -26), t: 0, duration: 100))
        // With automatic sectors "up" owns 90 degrees and takes the diagonal first.
        #expect(rig.log.first == "20 up possible -> recognized")
        up.sectors = .eight
        rig.log.removeAll()
        rig.run(drag([2], from: (100, 100), by: (15, -26), t: 1000, duration: 100))
        #expect(rig.log.prefix(2) == ["1020 up possible -> failed", "1020 up-right possible -> recognized"])
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
        // 100 mm/s: a flick once past 5 mm, at 60 ms.
        rig.run([.down(1, at: (100, 100), t: 0), .move(1, to: (97, 100), t: 30), .move(1, to: (94, 100), t: 60),
                 .move(1, to: (91, 100), t: 90)])
        #expect(rig.log == ["60 swipe possible -> recognized", "60 action swipe recognized"])
        #expect(swipe.recognizedDirection == .left)
    }
}
