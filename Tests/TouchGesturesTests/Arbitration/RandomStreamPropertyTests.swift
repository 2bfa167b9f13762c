import Testing
@testable import TouchGestures

/// A small deterministic generator (SplitMix64) so every run sees the same streams.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Allows simultaneous recognition with a chosen set of recognizers.
private final class Partners: GestureRecognizerDelegate {
    var partners: [ObjectIdentifier] = []
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        partners.contains(ObjectIdentifier(other))
    }
}

@Suite struct RandomStreamPropertyTests {
    static let streams = 10_000

    func makeRecognizers(_ rng: inout SeededGenerator) -> [GestureRecognizer] {
        var recognizers: [GestureRecognizer] = []
        let count = Int.random(in: 3...9, using: &rng)
        for index in 0..<count {
            let recognizer: GestureRecognizer
            switch Int.random(in: 0..<7, using: &rng) {
            case 0:
                let tap = TapGestureRecognizer()
                tap.numberOfTapsRequired = Int.random(in: 1...3, using: &rng)
                tap.numberOfTouchesRequired = Int.random(in: 1...3, using: &rng)
                recognizer = tap
            case 1:
                let press = LongPressGestureRecognizer()
                press.numberOfTouchesRequired = Int.random(in: 1...3, using: &rng)
                press.numberOfTapsRequired = Int.random(in: 0...1, using: &rng)
                recognizer = press
            case 2:
                let swipe = SwipeGestureRecognizer()
                swipe.numberOfTouchesRequired = Int.random(in: 1...4, using: &rng)
                swipe.direction = SwipeDirection(rawValue: UInt8.random(in: 1...255, using: &rng))
                recognizer = swipe
            case 3:
                let pan = PanGestureRecognizer()
                pan.minimumNumberOfTouches = Int.random(in: 1...2, using: &rng)
                pan.maximumNumberOfTouches = pan.minimumNumberOfTouches + Int.random(in: 0...2, using: &rng)
                recognizer = pan
            case 4: recognizer = PinchGestureRecognizer()
            case 5: recognizer = RotationGestureRecognizer()
            default:
                let edge = ScreenEdgePanGestureRecognizer()
                edge.edges = RectEdge(rawValue: UInt8.random(in: 1...15, using: &rng))
                recognizer = edge
            }
            recognizer.name = "r\(index)"
            if Bool.random(using: &rng) { recognizer.delaysTouchesBegan = true }
            recognizers.append(recognizer)
        }
        for waiter in recognizers where Int.random(in: 0..<3, using: &rng) == 0 {
            // Cycles are rejected by require(toFail:); the stream goes on without that edge.
            try? waiter.require(toFail: recognizers.randomElement(using: &rng)!)
        }
        return recognizers
    }

    func makeStream(_ rng: inout SeededGenerator) -> [Step] {
        var steps: [Step] = []
        var t: UInt64 = 0
        var nextID = 1
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            t += UInt64.random(in: 1...900, using: &rng)
            if Int.random(in: 0..<3, using: &rng) == 0 {
                let fingers = Int.random(in: 1...4, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    steps.append(.pad(.swipeBegin(fingers: fingers), t: t))
                    for _ in 0..<Int.random(in: 0...12, using: &rng) {
                        t += UInt64.random(in: 1...40, using: &rng)
                        let delta = Point(x: .random(in: -8...8, using: &rng), y: .random(in: -8...8, using: &rng))
                        steps.append(.pad(.swipeUpdate(fingers: fingers, delta: delta), t: t))
                    }
                    t += 5
                    steps.append(.pad(.swipeEnd(fingers: fingers, cancelled: Bool.random(using: &rng)), t: t))
                case 1:
                    steps.append(.pad(.pinchBegin(fingers: fingers), t: t))
                    var scale = 1.0
                    for _ in 0..<Int.random(in: 0...12, using: &rng) {
                        t += UInt64.random(in: 1...40, using: &rng)
                        scale = max(0.1, scale + .random(in: -0.1...0.1, using: &rng))
                        steps.append(.pad(.pinchUpdate(fingers: fingers, delta: .zero, scale: scale,
                                                       angleDelta: .random(in: -6...6, using: &rng)), t: t))
                    }
                    t += 5
                    steps.append(.pad(.pinchEnd(fingers: fingers, cancelled: Bool.random(using: &rng)), t: t))
                case 2:
                    steps.append(.pad(.holdBegin(fingers: fingers), t: t))
                    t += UInt64.random(in: 1...1200, using: &rng)
                    steps.append(.pad(.holdEnd(fingers: fingers, cancelled: Bool.random(using: &rng)), t: t))
                default:
                    steps.append(.pad(.tap(fingers: min(fingers, 3)), t: t))
                }
                continue
            }
            var down: [Int: (Double, Double)] = [:]
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let point = (Double.random(in: 0...300, using: &rng), Double.random(in: 0...200, using: &rng))
                down[nextID] = point
                steps.append(.down(nextID, at: point, t: t))
                nextID += 1
            }
            for _ in 0..<Int.random(in: 0...25, using: &rng) {
                t += UInt64.random(in: 1...120, using: &rng)
                switch Int.random(in: 0..<10, using: &rng) {
                case 0 where down.count < 5:
                    let point = (Double.random(in: 0...300, using: &rng), Double.random(in: 0...200, using: &rng))
                    down[nextID] = point
                    steps.append(.down(nextID, at: point, t: t))
                    nextID += 1
                case 1 where down.count > 1:
                    let id = down.keys.sorted()[0]
                    down[id] = nil
                    steps.append(Int.random(in: 0..<4, using: &rng) == 0 ? .cancel(id, t: t) : .up(id, t: t))
                default:
                    for id in down.keys.sorted() {
                        var point = down[id]!
                        point.0 += .random(in: -6...6, using: &rng)
                        point.1 += .random(in: -6...6, using: &rng)
                        down[id] = point
                        steps.append(.move(id, to: point, t: t))
                    }
                }
            }
            t += UInt64.random(in: 1...400, using: &rng)
            for id in down.keys.sorted() { steps.append(.up(id, t: t)) }
        }
        return steps
    }

    @Test func invariantsHoldOverRandomTouchStreams() {
        var violations: [String] = []
        var recognitions = 0
        for seed in 0..<UInt64(Self.streams) where violations.count < 5 {
            var rng = SeededGenerator(seed: seed)
            let rig = Rig()
            let view = CountingView()
            rig.environment.view = view
            let recognizers = makeRecognizers(&rng)
            let delegates = recognizers.map { _ in Partners() }
            for (index, recognizer) in recognizers.enumerated() where Bool.random(using: &rng) {
                delegates[index].partners = recognizers.filter { _ in Bool.random(using: &rng) }.map(ObjectIdentifier.init)
                recognizer.delegate = delegates[index]
            }
            var delivered: [ObjectIdentifier: Int] = [:]
            var acted: [ObjectIdentifier: Int] = [:]
            var open: Set<ObjectIdentifier> = []
            var winners: [GestureRecognizer] = []
            func fail(_ message: String) { violations.append("seed \(seed): \(message)") }
            for recognizer in recognizers {
                let id = ObjectIdentifier(recognizer)
                recognizer.addAction { _ in acted[id, default: 0] += 1 }
                recognizer.addStateObserver { r, from, to in
                    let isReset = from.isTerminal && to == .possible
                    // Resets happen only when a sequence ends, and every winner is reset then.
                    if isReset { winners.removeAll() }
                    if !isReset && !from.canTransition(to: to, continuous: r.isContinuous) {
                        fail("\(r.label) made the illegal transition \(from) -> \(to)")
                    }
                    if to == .began { open.insert(id) }
                    if to == .ended || to == .cancelled { open.remove(id) }
                    if to == .possible && open.contains(id) { fail("\(r.label) was reset while its gesture was open") }
                    if !isReset && to != .failed { delivered[id, default: 0] += 1 }
                    if from == .possible && (to == .began || to == .ended) {
                        recognitions += 1
                        for other in winners {
                            let simultaneous = (r.delegate?.gestureRecognizer(r, shouldRecognizeSimultaneouslyWith: other) ?? false)
                                || (other.delegate?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: r) ?? false)
                            if !simultaneous { fail("\(r.label) and \(other.label) both won one sequence") }
                            if r.failureRequirements.contains(where: { $0 === other })
                                || other.failureRequirements.contains(where: { $0 === r }) {
                                fail("\(r.label) and \(other.label) both won though one requires the other to fail")
                            }
                        }
                        winners.append(r)
                    }
                }
            }
            // Attach in a shuffled order (AttachOrderTests checks that outcomes do not depend on it).
            for recognizer in recognizers.shuffled(using: &rng) { rig.environment.attach(recognizer) }
            for step in makeStream(&rng) {
                rig.run([step])
            }
            rig.settle()
            if !rig.environment.isIdle { fail("the environment is not idle after all input ended and timers ran") }
            for recognizer in recognizers where recognizer.state != .possible {
                fail("\(recognizer.label) is \(recognizer.state) after the stream")
            }
            for recognizer in recognizers {
                let id = ObjectIdentifier(recognizer)
                if delivered[id, default: 0] != acted[id, default: 0] {
                    fail("\(recognizer.label) had \(delivered[id, default: 0]) transitions but \(acted[id, default: 0]) action calls")
                }
            }
            if !open.isEmpty { fail("a began was never closed") }
            if !rig.diagnostics.isEmpty { fail("diagnostics: \(rig.diagnostics)") }
            if view.liveTouches != 0 { fail("the view was left with \(view.liveTouches) touches it never saw end") }
        }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
        // The streams must exercise recognition, or the invariants say little.
        #expect(recognitions > Self.streams / 2)
    }
}

/// DESIGN.md: "Registration order never changes an outcome". The same recognizers
/// (with the same failure requirements and delegates) attached in three orders get the
/// same random stream; each recognizer must go through the same transitions at the same
/// times in all three.
@Suite struct AttachOrderTests {
    static let streams = 2_000

    /// Each recognizer's transitions, `TIME FROM -> TO`, by name.
    private func outcomes(seed: UInt64, order: ([GestureRecognizer]) -> [GestureRecognizer]) -> [String: [String]] {
        var rng = SeededGenerator(seed: seed)
        let properties = RandomStreamPropertyTests()
        let recognizers = properties.makeRecognizers(&rng)
        let delegates = recognizers.map { _ in Partners() }
        for (index, recognizer) in recognizers.enumerated() where Bool.random(using: &rng) {
            delegates[index].partners = recognizers.filter { _ in Bool.random(using: &rng) }.map(ObjectIdentifier.init)
            recognizer.delegate = delegates[index]
        }
        let rig = Rig()
        var transcript: [String: [String]] = [:]
        for recognizer in recognizers {
            recognizer.addStateObserver { r, from, to in
                transcript[r.name!, default: []].append("\(rig.environment.time.microseconds) \(from) -> \(to)")
            }
        }
        for recognizer in order(recognizers) { rig.environment.attach(recognizer) }
        var streamRNG = SeededGenerator(seed: seed &+ 0x5EED)
        for step in properties.makeStream(&streamRNG) { rig.run([step]) }
        rig.settle()
        return transcript
    }

    @Test func outcomesDoNotDependOnTheOrderRecognizersAreAttachedIn() {
        var differences: [String] = []
        var decided = 0
        for seed in 0..<UInt64(Self.streams) where differences.count < 5 {
            let asMade = outcomes(seed: seed) { $0 }
            let reversed = outcomes(seed: seed) { $0.reversed() }
            var shuffler = SeededGenerator(seed: ~seed)
            let shuffled = outcomes(seed: seed) { $0.shuffled(using: &shuffler) }
            if asMade != reversed { differences.append("seed \(seed), reversed: \(asMade) vs \(reversed)") }
            if asMade != shuffled { differences.append("seed \(seed), shuffled: \(asMade) vs \(shuffled)") }
            decided += asMade.values.joined().filter { $0.hasSuffix("-> began") || $0.hasSuffix("-> ended") }.count
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        // The streams must make recognizers decide, or agreeing says little.
        #expect(decided > Self.streams)
    }
}

/// Counts touches the view saw begin and not yet end or cancel.
private final class CountingView: TouchSink {
    var liveTouches = 0
    func touchesBegan(_ touches: [Touch], at time: Timestamp) { liveTouches += touches.count }
    func touchesMoved(_ touches: [Touch], at time: Timestamp) {}
    func touchesEnded(_ touches: [Touch], at time: Timestamp) { liveTouches -= touches.count }
    func touchesCancelled(_ touches: [Touch], at time: Timestamp) { liveTouches -= touches.count }
}
