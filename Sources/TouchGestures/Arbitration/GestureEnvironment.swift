/// Delivers input to attached recognizers, arbitrates between them and resets them:
/// the part of UIKit that lives in `UIWindow` and the gesture system.
///
/// One gesture sequence runs from the first touch down (or touchpad gesture begin)
/// until every touch is up and every recognizer has settled; then every recognizer in a
/// terminal state is reset to `possible`. Within a sequence two recognizers do not both
/// begin or recognize unless a delegate allows it.
///
/// Outcomes do not depend on the order recognizers are attached: input is delivered in
/// order of name (then kind), and that order breaks the rare tie of two recognizers
/// deciding in the same event. Name your recognizers.
public final class GestureEnvironment {
    /// Where recognizers' timers run.
    public let scheduler: any Scheduler

    /// Receives the touches recognizers let through (see `cancelsTouchesInView`,
    /// `delaysTouchesBegan`, `delaysTouchesEnded`). Held weakly.
    @exclusivity(unchecked) public weak var view: (any TouchSink)?

    /// Called with every state write of every attached recognizer: the transition log.
    @exclusivity(unchecked) public var transitionObserver: ((TransitionRecord) -> Void)?

    /// Called with every move of every attached recognizer's private phase machine
    /// (``PhaseMove``): what `touchgest debug -v` shows between the state transitions.
    @exclusivity(unchecked) public var phaseObserver: ((PhaseMove) -> Void)?

    /// Called when a recognizer or an action misbehaves (an illegal transition, an action
    /// that threw); the engine carries on.
    @exclusivity(unchecked) public var diagnosticHandler: ((GestureDiagnostic) -> Void)?

    /// Called when input lands while nothing is down, before any recognizer sees it: a
    /// new gesture begins. Whoever decides a gesture by what was true when it began (the
    /// focused window, for rules with window keys) takes that now. Every caller of
    /// ``handle(_:)`` gets the same moment, so a daemon and a replay decide alike.
    @exclusivity(unchecked) public var gestureWillBegin: (() -> Void)?

    /// Touchpads whose fingers are read and whose gestures libinput cannot tell (semi-MT
    /// pads, whose two-finger taps it takes for scrolling): recognizers with
    /// ``TouchpadInput/automatic`` input take these pads' fingers instead of libinput's
    /// gestures. Whoever reads the fingers keeps it current (the daemon's session, as it
    /// opens and closes a pad's reader).
    @exclusivity(unchecked) public var fingerReadTouchpads: Set<DeviceID> = []

    /// Whether `recognizer` takes the fingers of touchpad `device` rather than libinput's
    /// gestures.
    func takesFingers(_ recognizer: GestureRecognizer, of device: DeviceID?) -> Bool {
        switch recognizer.touchpadInput {
        case .gestures: false
        case .contacts: true
        case .automatic: device.map(fingerReadTouchpads.contains) ?? false
        }
    }

    // These and the hooks above are read at every event and transition, on one thread,
    // and no access to them overlaps another (a hook is copied, then called): no dynamic
    // exclusivity checks, which cost about 60 instructions each.

    /// The attached recognizers in delivery order.
    @exclusivity(unchecked) public private(set) var recognizers: [GestureRecognizer] = []

    // One thread, never two overlapping accesses: no dynamic exclusivity checks needed.
    @exclusivity(unchecked) var liveTouches: [Touch] = []
    @exclusivity(unchecked) var activeTouchpadGesture: TouchpadGestureKind?
    @exclusivity(unchecked) var winners: [GestureRecognizer] = []
    /// Recognizers holding delayed transitions until others fail.
    @exclusivity(unchecked) var waiters: [GestureRecognizer] = []
    @exclusivity(unchecked) var currentInput: CurrentInput = .none
    @exclusivity(unchecked) var currentTime = Timestamp(microseconds: 0)

    /// The timestamp of the input (or timer) being handled, else of the last one: when a
    /// transition delivered now happened, on the input's clock.
    public var time: Timestamp { currentTime }
    @exclusivity(unchecked) var viewTouches: [Int: ViewTouch] = [:]
    /// Counts gestures: landings while nothing was down.
    @exclusivity(unchecked) var gestureCount = 0
    private var attachCount = 0

    enum CurrentInput {
        case none
        case touches(TouchEvent)
        case touchpad(TouchpadEvent)
        case timer(String)
    }

    /// Makes an environment whose recognizers schedule timers on `scheduler`.
    public init(scheduler: any Scheduler) {
        self.scheduler = scheduler
    }

    /// Whether nothing is under way: no touch down, no touchpad gesture, no recognizer deciding.
    public var isIdle: Bool {
        liveTouches.isEmpty && activeTouchpadGesture == nil
            && recognizers.allSatisfy { $0.state == .possible && !$0.arbitration.isTracking }
    }

    // MARK: Attaching

    /// Attaches a recognizer (moving it from another environment if needed).
    public func attach(_ recognizer: GestureRecognizer) {
        if let other = recognizer.environment {
            if other === self { return }
            other.detach(recognizer)
        }
        attachCount += 1
        recognizer.serial = attachCount
        recognizer.environment = self
        let key = Self.orderKey(recognizer)
        let index = recognizers.firstIndex { Self.orderKey($0) > key } ?? recognizers.endIndex
        recognizers.insert(recognizer, at: index)
    }

    /// Detaches a recognizer; one mid-gesture is cancelled (or failed) first.
    public func detach(_ recognizer: GestureRecognizer) {
        guard recognizer.environment === self else { return }
        recognizerWasDisabled(recognizer)
        recognizers.removeAll { $0 === recognizer }
        winners.removeAll { $0 === recognizer }
        resetRecognizer(recognizer, log: false)
        recognizer.environment = nil
    }

    private static func orderKey(_ recognizer: GestureRecognizer) -> (String, String, Int) {
        (recognizer.name ?? "", recognizer.kindName, recognizer.serial)
    }

    // MARK: Input

    /// Delivers one input event.
    public func handle(_ event: InputEvent) {
        switch event {
        case let .touches(frame): handle(frame)
        case let .touchpad(gesture): handle(gesture)
        }
    }

    /// Delivers one touchscreen frame.
    public func handle(_ event: TouchEvent) {
        scheduler.fireTimers(before: event.timestamp)
        currentTime = event.timestamp
        currentInput = .touches(event)
        defer { currentInput = .none }

        var began: [Touch] = []
        var moved: [Touch] = []
        var ended: [Touch] = []
        var cancelled: [Touch] = []
        for touch in event.changedTouches {
            switch touch.phase {
            case .began: began.append(touch)
            case .moved, .stationary: moved.append(touch)
            case .ended: ended.append(touch)
            case .cancelled: cancelled.append(touch)
            }
        }
        let carried = began.isEmpty || !isBetweenGestures ? [] : startGesture()
        for touch in began { liveTouches.append(touch) }
        for touch in moved { updateLiveTouch(touch) }
        for touch in ended { updateLiveTouch(touch) }
        for touch in cancelled { updateLiveTouch(touch) }
        for touch in began { bind(touch, to: recognizers, event) }

        let liveCount = liveTouches.count
        for recognizer in recognizers where recognizer.receivesInput {
            let count = recognizer.arbitration.touchIDs.count
            if count == 0 { continue }
            if count == liveCount {
                // The common case: the recognizer tracks every live touch.
                deliver(to: recognizer, began, moved, ended, cancelled, event)
            } else {
                let ids = recognizer.arbitration.touchIDs
                func mine(_ list: [Touch]) -> [Touch] { list.isEmpty ? list : list.filter { ids.contains($0.id) } }
                deliver(to: recognizer, mine(began), mine(moved), mine(ended), mine(cancelled), event)
            }
        }
        if !carried.isEmpty { restart(carried, with: began, event) }

        // As in UIKit, recognizers see a touch before the view does.
        if view != nil { viewDeliver(began: began, moved: moved, ended: ended, cancelled: cancelled) }

        if !ended.isEmpty || !cancelled.isEmpty {
            let gone = (ended + cancelled).map(\.id)
            for recognizer in recognizers where !recognizer.arbitration.touchIDs.isEmpty {
                if recognizer.arbitration.touchIDs.contains(where: gone.contains) { rememberLifted(recognizer) }
                recognizer.arbitration.touchIDs.removeAll { gone.contains($0) }
            }
            liveTouches.removeAll { gone.contains($0.id) }
            if view != nil { viewTouchesGone(gone) }
            endSequenceIfSettled()
        }
    }

    /// Delivers one touchpad gesture event.
    public func handle(_ event: TouchpadEvent) {
        scheduler.fireTimers(before: event.timestamp)
        currentTime = event.timestamp
        currentInput = .touchpad(event)
        defer { currentInput = .none }

        let gesture = event.gesture
        let carried = gesture.isBegin && isBetweenGestures ? startGesture() : []
        if gesture.isBegin { activeTouchpadGesture = gesture.kind }
        // Every recognizer takes up a beginning gesture before any is given it, as touches
        // are bound before they are delivered: otherwise one that decides at once (a tap)
        // would not yet see those it must wait for, and names would change outcomes.
        if gesture.isBegin {
            var following: [GestureRecognizer] = []
            for recognizer in recognizers where beginTouchpadGesture(recognizer, event) { following.append(recognizer) }
            for recognizer in following { deliverTouchpad(event, to: recognizer) }
        } else {
            // The common case, every update of a swipe or pinch: no list to build.
            for recognizer in recognizers where recognizer.arbitration.touchpadFingers > 0 { deliverTouchpad(event, to: recognizer) }
        }
        // A recognizer of the last gesture that won with this event (a double tap's second
        // tap) has it: nothing starts over. Otherwise those that gave up start over on it.
        let consumed = carried.contains { recognizer in
            recognizer.arbitration.touchpadFingers > 0 && winners.contains { $0 === recognizer }
        }
        for recognizer in carried where recognizer.state.isTerminal && !consumed {
            resetRecognizer(recognizer, log: true)
            winners.removeAll { $0 === recognizer }
            if view != nil { viewForget(recognizer) }
            if beginTouchpadGesture(recognizer, event) { deliverTouchpad(event, to: recognizer) }
        }
        if gesture.isEnd {
            activeTouchpadGesture = nil
            for recognizer in recognizers where recognizer.arbitration.touchpadFingers > 0 {
                recognizer.arbitration.lifted.count = recognizer.arbitration.touchpadFingers
                recognizer.arbitration.touchpadFingers = 0
            }
            endSequenceIfSettled()
        }
    }

    private func beginTouchpadGesture(_ recognizer: GestureRecognizer, _ event: TouchpadEvent) -> Bool {
        guard recognizer.receivesInput, recognizer.arbitration.trackedType != .direct,
              recognizer.allowedTouchTypes.contains(.indirect), !takesFingers(recognizer, of: event.device),
              recognizer.acceptedTouchpadGestures.contains(event.gesture.kind),
              recognizer.delegate?.gestureRecognizer(recognizer, shouldReceive: event) ?? true
        else { return false }
        if !recognizer.arbitration.isTracking { recognizer.arbitration.gesture = gestureCount }
        recognizer.arbitration.isTracking = true
        recognizer.arbitration.trackedType = .indirect
        if recognizer.arbitration.trackedDevice == nil { recognizer.arbitration.trackedDevice = event.device }
        recognizer.arbitration.touchpadFingers = event.gesture.fingers
        recognizer.arbitration.touchpadOffset = .zero
        return true
    }

    private func deliverTouchpad(_ event: TouchpadEvent, to recognizer: GestureRecognizer) {
        if case let .swipeUpdate(_, delta) = event.gesture { recognizer.arbitration.touchpadOffset += delta }
        if case let .pinchUpdate(_, delta, _, _) = event.gesture { recognizer.arbitration.touchpadOffset += delta }
        guard recognizer.receivesInput else { return }
        recognizer.modifierFlags = event.modifierFlags
        recognizer.buttonMask = event.buttonMask
        recognizer.touchpadGesture(event)
    }

    // MARK: Gestures within a sequence

    /// Whether no finger is down and no touchpad gesture is under way, though recognizers
    /// may still be deciding (a double tap waiting for its second tap): input that lands
    /// now begins a new gesture.
    public var isBetweenGestures: Bool {
        liveTouches.isEmpty && activeTouchpadGesture == nil
    }

    /// Input lands while nothing is down: a new gesture. Recognizers that already decided
    /// the last one are reset so they can follow it, instead of sitting out until the
    /// waiting ones time out. Returns those still deciding the last gesture, which
    /// ``restart(_:with:_:)`` gives the new one if the landing makes them give up.
    private func startGesture() -> [GestureRecognizer] {
        gestureWillBegin?()
        var carried: [GestureRecognizer] = []
        gestureCount &+= 1
        for recognizer in recognizers {
            if recognizer.state.isTerminal {
                resetRecognizer(recognizer, log: true)
                if view != nil { viewForget(recognizer) }
            } else if recognizer.arbitration.isTracking {
                carried.append(recognizer)
            }
        }
        winners.removeAll()
        return carried
    }

    /// Recognizers that were still deciding the last gesture and gave up when the new one
    /// landed (a second tap too far away) start over on it, so it is not lost; unless one of
    /// them won with it.
    private func restart(_ carried: [GestureRecognizer], with began: [Touch], _ event: TouchEvent) {
        // A recognizer of the last gesture that won with the new fingers (a double tap's
        // second tap) has them: nothing starts over.
        let consumed = carried.contains { recognizer in
            winners.contains { $0 === recognizer } && began.contains { recognizer.arbitration.touchIDs.contains($0.id) }
        }
        guard !consumed else { return }
        for recognizer in carried where recognizer.state.isTerminal {
            resetRecognizer(recognizer, log: true)
            winners.removeAll { $0 === recognizer }
            if view != nil { viewForget(recognizer) }
            let landed = began.filter { touch in liveTouches.contains { $0.id == touch.id } }
            for touch in landed { bind(touch, to: [recognizer], event) }
            let mine = landed.filter { recognizer.arbitration.touchIDs.contains($0.id) }
            guard !mine.isEmpty else { continue }
            recognizer.modifierFlags = event.modifierFlags
            recognizer.buttonMask = event.buttonMask
            recognizer.touchesBegan(mine, with: event)
        }
    }

    /// Remembers where a recognizer's touches are before some of them are forgotten.
    private func rememberLifted(_ recognizer: GestureRecognizer) {
        let count = recognizer.arbitration.touchIDs.count
        guard count >= recognizer.arbitration.lifted.count else { return }
        recognizer.arbitration.lifted = .init(
            count: count, location: recognizer.location(), normalizedLocation: recognizer.location(in: .normalized))
    }

    // MARK: Touches

    private func deliver(
        to recognizer: GestureRecognizer, _ began: [Touch], _ moved: [Touch], _ ended: [Touch],
        _ cancelled: [Touch], _ event: TouchEvent
    ) {
        // The values of the last event it processed, set before it sees the event.
        recognizer.modifierFlags = event.modifierFlags
        recognizer.buttonMask = event.buttonMask
        if !began.isEmpty { recognizer.touchesBegan(began, with: event) }
        if !moved.isEmpty, recognizer.receivesInput { recognizer.touchesMoved(moved, with: event) }
        if !ended.isEmpty, recognizer.receivesInput { recognizer.touchesEnded(ended, with: event) }
        if !cancelled.isEmpty, recognizer.receivesInput { recognizer.touchesCancelled(cancelled, with: event) }
    }

    func liveTouch(_ id: Int) -> Touch? {
        liveTouches.first { $0.id == id }
    }

    private func updateLiveTouch(_ touch: Touch) {
        if let index = liveTouches.firstIndex(where: { $0.id == touch.id }) {
            liveTouches[index] = touch
        }
    }

    /// Gives `touch` to each candidate that takes it. The modifiers and buttons held at
    /// `event` are the candidate's before its delegate is asked, so that it can decide on
    /// them (the event is the one being processed).
    private func bind(_ touch: Touch, to candidates: [GestureRecognizer], _ event: TouchEvent) {
        for recognizer in candidates
        where recognizer.receivesInput && recognizer.allowedTouchTypes.contains(touch.type)
            && (touch.type == .direct || takesFingers(recognizer, of: touch.device))
            && (recognizer.arbitration.trackedType ?? touch.type) == touch.type {
            recognizer.modifierFlags = event.modifierFlags
            recognizer.buttonMask = event.buttonMask
            guard recognizer.delegate?.gestureRecognizer(recognizer, shouldReceive: touch) ?? true else { continue }
            recognizer.arbitration.touchIDs.append(touch.id)
            if !recognizer.arbitration.isTracking { recognizer.arbitration.gesture = gestureCount }
            recognizer.arbitration.isTracking = true
            recognizer.arbitration.trackedType = touch.type
            if recognizer.arbitration.trackedDevice == nil { recognizer.arbitration.trackedDevice = touch.device }
        }
    }

    // MARK: Timers and the end of a sequence

    func schedule(_ recognizer: GestureRecognizer, at deadline: Timestamp, _ fire: @escaping (Timestamp) -> Void) -> TimerToken {
        scheduler.schedule(at: deadline) { [weak self, weak recognizer] time in
            guard let self, let recognizer, recognizer.environment === self else { return }
            recognizer.arbitration.timerToken = nil
            let saved = currentInput
            currentInput = .timer(recognizer.arbitration.timerName)
            currentTime = max(currentTime, time)
            fire(time)
            endSequenceIfSettled()
            currentInput = saved
        }
    }

    /// Resets every recognizer once no input is down and none is still deciding.
    func endSequenceIfSettled() {
        guard liveTouches.isEmpty, activeTouchpadGesture == nil else { return }
        // A recognizer with a timer is still deciding: the sequence goes on.
        for recognizer in recognizers where recognizer.state == .possible && recognizer.arbitration.isTracking {
            if recognizer.arbitration.timerToken != nil { return }
        }
        // One still deciding with no input and no timer would hold the sequence open
        // forever: a bug in that recognizer, so it fails and is reported. Failing it can
        // deliver the delayed transitions of those waiting for it.
        for recognizer in recognizers
        where recognizer.state == .possible && recognizer.arbitration.isTracking && recognizer.arbitration.pending.isEmpty {
            report("\(recognizer.label) was still possible with no input and no timer; failing it")
            commit(recognizer, .failed, cause: .sequenceEnded)
        }
        for recognizer in recognizers where recognizer.state == .possible && recognizer.arbitration.isTracking {
            if recognizer.arbitration.timerToken != nil { return }
            if !recognizer.arbitration.pending.isEmpty {
                report("\(recognizer.label) was still waiting for others to fail when the sequence ended; failing it")
                stopWaiting(recognizer)
                commit(recognizer, .failed, cause: .sequenceEnded)
            }
        }
        for recognizer in recognizers where recognizer.arbitration.isTracking || recognizer.state != .possible {
            resetRecognizer(recognizer, log: true)
        }
        winners.removeAll()
        viewTouches.removeAll()
    }

    func resetRecognizer(_ recognizer: GestureRecognizer, log: Bool) {
        recognizer.cancelTimer()
        stopWaiting(recognizer)
        // The gesture number stays until the recognizer follows another gesture.
        recognizer.arbitration = ArbitrationRecord(gesture: recognizer.arbitration.gesture)
        if recognizer.state != .possible {
            let old = recognizer.state
            recognizer.write(.possible)
            if log { record(recognizer, from: old, to: .possible, cause: .reset) }
        }
        recognizer.reset()
    }

    /// Reports a bug to ``diagnosticHandler``: a recognizer met an input its phase machine
    /// cannot be in (the pair is named, e.g. `up while idle cannot happen`). The engine
    /// carries on. Public so that recognizers written outside the engine report alike.
    public func report(_ message: String) {
        diagnosticHandler?(GestureDiagnostic(message: message))
    }
}
