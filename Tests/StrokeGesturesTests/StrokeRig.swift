import StrokeGestures
import TouchGestures

/// An environment on a manual scheduler and one transcript that transitions and actions
/// append to, fed scripted touches: the engine tests' rig, using only public API.
final class StrokeRig {
    let scheduler = ManualScheduler()
    let environment: GestureEnvironment
    var log: [String] = []
    var diagnostics: [String] = []
    var touchType = TouchType.direct
    private var live: [Int: Touch] = [:]

    init() {
        environment = GestureEnvironment(scheduler: scheduler)
        environment.transitionObserver = { [unowned self] record in
            guard record.to != .possible else { return }
            let to = record.isDiscrete && record.to == .ended ? "recognized" : record.to.description
            log.append("\(record.timestamp.microseconds / 1000) \(record.recognizer) \(record.from) -> \(to)")
        }
        environment.diagnosticHandler = { [unowned self] in diagnostics.append($0.description) }
    }

    /// Attaches `recognizer` named `name`; its actions append `action NAME`.
    @discardableResult
    func add<R: GestureRecognizer>(_ recognizer: R, _ name: String) -> R {
        recognizer.name = name
        recognizer.addAction { [unowned self] in log.append("\(scheduler.now.microseconds / 1000) action \($0.label)") }
        environment.attach(recognizer)
        return recognizer
    }

    /// A stroke recognizer named `name` with `templates` (points in the box).
    @discardableResult
    func stroke(_ name: String, _ templates: [[(Double, Double)]], fingers: Int = 1, group: StrokeGroup? = nil) throws -> StrokeGestureRecognizer {
        let stroke = StrokeGestureRecognizer()
        stroke.numberOfTouchesRequired = fingers
        stroke.templates = try templates.map { points throws(StrokeTemplate.Problem) in
            try StrokeTemplate(points: points.map { Point(x: $0.0, y: $0.1) })
        }
        add(stroke, name)
        group?.add(stroke)
        return stroke
    }

    /// One frame at `t` ms: fingers landing, moving and lifting.
    func frame(at t: UInt64, down: [Int: Point] = [:], move: [Int: Point] = [:], up: [Int] = []) {
        let time = Timestamp.milliseconds(t)
        var changed: [Touch] = []
        for (id, point) in down.sorted(by: { $0.key < $1.key }) {
            let touch = Touch(id: id, phase: .began, location: point, timestamp: time, type: touchType,
                              surfaceSize: Size(width: 300, height: 200))
            live[id] = touch
            changed.append(touch)
        }
        for (id, point) in move.sorted(by: { $0.key < $1.key }) {
            guard var touch = live[id] else { continue }
            touch.previousLocation = touch.location
            touch.location = point
            touch.phase = .moved
            touch.timestamp = time
            live[id] = touch
            changed.append(touch)
        }
        for id in up {
            guard var touch = live[id] else { continue }
            touch.previousLocation = touch.location
            touch.phase = .ended
            touch.timestamp = time
            live[id] = nil
            changed.append(touch)
        }
        // The environment fires the timers due before the frame itself.
        environment.handle(TouchEvent(timestamp: time, down: live.values, changed: changed))
        scheduler.advance(to: time)
    }

    /// `fingers` fingers, 15 mm apart side by side, drawing the polyline through `corners`
    /// (millimetres, for the first finger) from `t` ms, one frame every 10 ms at `speed`
    /// mm/s, then lifting together one frame later. Returns the time of the lift.
    @discardableResult
    func draw(_ corners: [(Double, Double)], fingers: Int = 1, from t: UInt64 = 0, speed: Double = 200,
              lift: Bool = true) -> UInt64 {
        let points = corners.map { Point(x: $0.0, y: $0.1) }
        func place(_ point: Point) -> [Int: Point] {
            Dictionary(uniqueKeysWithValues: (1...fingers).map { ($0, point + Point(x: Double($0 - 1) * 15, y: 0)) })
        }
        frame(at: t, down: place(points[0]))
        var time = t
        let step = speed * 0.010
        for index in points.indices.dropFirst() {
            let from = points[index - 1]
            let length = from.distance(to: points[index])
            let steps = max(1, Int((length / step).rounded(.up)))
            for part in 1...steps {
                time += 10
                frame(at: time, move: place(from + (points[index] - from) * (Double(part) / Double(steps))))
            }
        }
        guard lift else { return time }
        time += 10
        frame(at: time, up: Array(1...fingers))
        return time
    }
}

/// The ideal shapes the tests draw, in the box.
enum Shape {
    static let v = [(0.0, 0.0), (0.5, 1.0), (1.0, 0.0)]
    static let caret = [(0.0, 1.0), (0.5, 0.0), (1.0, 1.0)]
    static let downUp = [(0.5, 0.0), (0.5, 1.0), (0.5, 0.0)]
    static let upDown = [(0.5, 1.0), (0.5, 0.0), (0.5, 1.0)]
    static let l = [(0.0, 0.0), (0.0, 1.0), (0.7, 1.0)]
    static let z = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
    /// A right curly brace, two fifths as wide as it is tall, drawn from its top.
    static let brace = [(0.3, 0.0), (0.5, 0.05), (0.5, 0.42), (0.7, 0.5), (0.5, 0.58), (0.5, 0.95), (0.3, 1.0)]
    /// The same drawn a fifth as wide as it is tall: nearer its straight line than its
    /// template, with points paired by index (the test that draws it checks).
    static let narrowBrace = [(0.42, 0.0), (0.5, 0.05), (0.5, 0.42), (0.58, 0.5), (0.5, 0.58), (0.5, 0.95), (0.42, 1.0)]
    /// A right square bracket, drawn from its top.
    static let bracket = [(0.0, 0.0), (0.5, 0.0), (0.5, 1.0), (0.0, 1.0)]

    /// `shape` drawn `size` mm wide from `origin`, in millimetres.
    static func drawn(_ shape: [(Double, Double)], size: Double = 40, at origin: (Double, Double) = (100, 50)) -> [(Double, Double)] {
        shape.map { (origin.0 + $0.0 * size, origin.1 + $0.1 * size) }
    }
}
