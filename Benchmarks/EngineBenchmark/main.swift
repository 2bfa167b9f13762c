// Measures the engine's cost per input frame with 50 attached recognizers.
//
//   swift run -c release EngineBenchmark [repetitions]
//
// The stream repeats a tour of gestures (taps, a double tap, a long press, one-, two-
// and three-finger drags, a pinch that turns) so that recognizers begin, change, fail
// and reset the way they do in use. Timers run on a manual scheduler: the figure is
// the engine's own work, with no clock or I/O in it.
import TouchGestures

func makeRecognizers() -> [GestureRecognizer] {
    var recognizers: [GestureRecognizer] = []
    for index in 0..<50 {
        let recognizer: GestureRecognizer
        switch index % 7 {
        case 0:
            let tap = TapGestureRecognizer()
            tap.numberOfTapsRequired = 1 + index % 3
            tap.numberOfTouchesRequired = 1 + index % 2
            recognizer = tap
        case 1:
            let press = LongPressGestureRecognizer()
            press.numberOfTouchesRequired = 1 + index % 3
            recognizer = press
        case 2:
            let swipe = SwipeGestureRecognizer()
            swipe.direction = .all
            swipe.numberOfTouchesRequired = 1 + index % 4
            recognizer = swipe
        case 3:
            let pan = PanGestureRecognizer()
            pan.minimumNumberOfTouches = 1 + index % 3
            recognizer = pan
        case 4: recognizer = PinchGestureRecognizer()
        case 5: recognizer = RotationGestureRecognizer()
        default:
            let edge = ScreenEdgePanGestureRecognizer()
            edge.edges = .all
            recognizer = edge
        }
        recognizer.name = "r\(index)"
        recognizer.addAction { _ in actions += 1 }
        recognizers.append(recognizer)
    }
    return recognizers
}

nonisolated(unsafe) var actions = 0

/// Builds the frames of one tour starting at `start` milliseconds; returns them and the end time.
func tour(from start: UInt64, firstID: Int) -> (events: [TouchEvent], end: UInt64) {
    var events: [TouchEvent] = []
    var t = start
    var id = firstID
    func frame(_ touches: [Touch]) {
        events.append(TouchEvent(timestamp: .milliseconds(t), allTouches: touches, changedTouches: touches))
    }
    func touch(_ id: Int, _ phase: TouchPhase, _ x: Double, _ y: Double, previous: Point? = nil) -> Touch {
        Touch(id: id, phase: phase, location: Point(x: x, y: y), previousLocation: previous,
              timestamp: .milliseconds(t), surfaceSize: Size(width: 300, height: 200))
    }
    // Taps: a single, then a double.
    for _ in 0..<3 {
        frame([touch(id, .began, 100, 100)]); t += 60
        frame([touch(id, .ended, 100, 100)]); t += 150
        id += 1
    }
    t += 1000
    // A long press.
    frame([touch(id, .began, 100, 100)]); t += 700
    frame([touch(id, .ended, 100, 100)]); t += 1000
    id += 1
    // Drags with one, two and three fingers, 60 frames each at ~7 ms like a real touchscreen.
    for fingers in 1...3 {
        let ids = (0..<fingers).map { id + $0 }
        frame(ids.enumerated().map { touch($1, .began, 50 + Double($0) * 20, 100) })
        for step in 1...60 {
            t += 7
            frame(ids.enumerated().map { index, tid in
                let x = 50 + Double(index) * 20 + Double(step)
                return touch(tid, .moved, x, 100, previous: Point(x: x - 1, y: 100))
            })
        }
        t += 7
        frame(ids.enumerated().map { touch($1, .ended, 110 + Double($0) * 20, 100) })
        id += fingers
        t += 1000
    }
    // A pinch that turns: finger 2 circles out from finger 1.
    frame([touch(id, .began, 150, 100), touch(id + 1, .began, 190, 100)])
    var previous = Point(x: 190, y: 100)
    for step in 1...60 {
        t += 7
        let angle = Double(step) * 0.01
        let radius = 40 + Double(step) * 0.5
        // A cheap rotation without Foundation: small-angle approximation is enough here.
        let next = Point(x: 150 + radius * (1 - angle * angle / 2), y: 100 + radius * angle)
        frame([touch(id + 1, .moved, next.x, next.y, previous: previous)])
        previous = next
    }
    t += 7
    frame([touch(id, .ended, 150, 100), touch(id + 1, .ended, previous.x, previous.y)])
    t += 1000
    return (events, t)
}

let repetitions = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2_000
let scheduler = ManualScheduler()
let environment = GestureEnvironment(scheduler: scheduler)
for recognizer in makeRecognizers() { environment.attach(recognizer) }

var events: [TouchEvent] = []
var end: UInt64 = 0
var nextID = 1
for _ in 0..<repetitions {
    let (tourEvents, tourEnd) = tour(from: end, firstID: nextID)
    events += tourEvents
    end = tourEnd
    nextID += 20
}

let clock = ContinuousClock()
let elapsed = clock.measure {
    for event in events {
        environment.handle(event)
    }
    scheduler.runUntilIdle()
}
let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
let perFrame = nanoseconds / Double(events.count)
print("recognizers: 50")
print("frames: \(events.count)")
print("actions called: \(actions)")
print("total: \((nanoseconds / 1e6).rounded()) ms")
print("per frame: \((perFrame).rounded()) ns (\((perFrame / 1000 * 100).rounded() / 100) us)")
