/// Decides from a stream of touches whether the user made one gesture, as UIKit's
/// `UIGestureRecognizer` does, and tells its targets.
///
/// Attach recognizers to a ``GestureEnvironment``; it delivers input, arbitrates
/// between them and resets them. Subclasses override the `touches…` hooks (and
/// ``touchpadGesture(_:)`` for touchpad gestures) and move through states with
/// ``transition(to:)``, the one place a state changes.
open class GestureRecognizer {
    /// Names an action so that a target/action pair can be compared and removed, as a
    /// selector does in UIKit.
    public struct ActionName: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public var rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }
    }

    /// Identifies a closure added with ``addAction(_:)`` or ``addStateObserver(_:)``.
    public struct Token: Hashable, Sendable {
        let rawValue: Int
    }

    enum Action {
        case target(target: Weak, name: ActionName, perform: (AnyObject, GestureRecognizer) -> Void)
        case closure(Token, (GestureRecognizer) throws -> Void)
    }

    struct Weak {
        weak var object: AnyObject?
    }

    // State and what the environment reads or sets at every event (the name, delegate,
    // touch types, environment, modifier flags and button mask, failure requirements):
    // one thread, and no access overlaps another, so no dynamic exclusivity checks.

    /// The recognizer's state. Read-only: subclasses move it with ``transition(to:)``,
    /// and the environment resets it to `possible` after a terminal state.
    @exclusivity(unchecked) public internal(set) var state: GestureRecognizerState = .possible

    /// A name for logs and rule files; also orders recognizers when two decide in the same event.
    @exclusivity(unchecked) public var name: String?

    /// Fine-tunes arbitration; held weakly.
    @exclusivity(unchecked) public weak var delegate: (any GestureRecognizerDelegate)?

    /// Which kinds of touch the recognizer receives; all by default.
    @exclusivity(unchecked) public var allowedTouchTypes: Set<TouchType> = Set(TouchType.allCases)

    /// What the recognizer takes from touchpads: libinput's gestures (the default), the
    /// fingers as indirect touches, or each pad's as the environment knows it
    /// (``TouchpadInput/automatic``). Touchscreen touches are unaffected.
    @exclusivity(unchecked) public var touchpadInput = TouchpadInput.gestures

    /// When true (the default), touches are cancelled in the environment's view once the
    /// recognizer begins or is recognized.
    public var cancelsTouchesInView = true

    /// When true, the view receives no `touchesBegan` until this recognizer fails; false by default.
    public var delaysTouchesBegan = false

    /// When true (the default), the view's `touchesEnded` waits until this recognizer
    /// has failed or been recognized.
    public var delaysTouchesEnded = true

    /// The environment the recognizer is attached to.
    /// The modifier keys held at the last event this recognizer processed (UIKit: "Values
    /// from the last event processed. These values are not considered as requirements for
    /// the gesture."). Empty until it has processed one, and where the input adapter knows
    /// none.
    @exclusivity(unchecked) public internal(set) var modifierFlags: KeyModifierFlags = []

    /// The buttons held at the last event this recognizer processed; not a requirement of
    /// the gesture either.
    @exclusivity(unchecked) public internal(set) var buttonMask: EventButtonMask = []

    @exclusivity(unchecked) public internal(set) weak var environment: GestureEnvironment?

    /// Recognizers this one waits for, added with ``require(toFail:)``.
    @exclusivity(unchecked) public private(set) var failureRequirements: [GestureRecognizer] = []

    @exclusivity(unchecked) var actions: [Action] = []
    @exclusivity(unchecked) var observers: [(Token, (GestureRecognizer, GestureRecognizerState, GestureRecognizerState) -> Void)] = []
    var nextToken = 0
    @exclusivity(unchecked) var enabled = true

    // The attachment number, for labels; the arbitration record holds the rest.
    @exclusivity(unchecked) var serial = 0
    /// What the environment keeps of this recognizer in the current gesture: replaced
    /// whole when the recognizer is reset, so nothing of one gesture leaks into the next.
    @exclusivity(unchecked) var arbitration = ArbitrationRecord()

    /// Makes a recognizer with no targets.
    public init() {}

    /// Makes a recognizer that calls `method` on `target` at every delivered transition.
    public convenience init<Target: AnyObject>(
        target: Target, action: ActionName, _ method: @escaping (Target) -> (GestureRecognizer) -> Void
    ) {
        self.init()
        addTarget(target, action: action, method)
    }

    /// Whether the recognizer is discrete (`possible -> recognized`) or continuous
    /// (`began`, `changed`, `ended`). Subclasses override.
    open var isContinuous: Bool { false }

    /// A short lowercase name of the recognizer's kind for logs, e.g. `tap`.
    open var kindName: String { "gesture" }

    /// The touchpad gesture families this recognizer accepts (see DESIGN.md, "Two shapes of input").
    open var acceptedTouchpadGestures: Set<TouchpadGestureKind> { [] }

    /// The name, or the kind and attachment number, e.g. `tap#2`.
    public var label: String { name ?? "\(kindName)#\(serial)" }

    /// Whether the recognizer receives input. Turning it off mid-gesture cancels a
    /// gesture that began and fails one still possible.
    public var isEnabled: Bool {
        get { enabled }
        set {
            guard newValue != enabled else { return }
            enabled = newValue
            if !newValue { environment?.recognizerWasDisabled(self) }
        }
    }

    // MARK: Targets and actions

    /// Adds a target/action pair; a pair already present is ignored. The target is held
    /// weakly. Actions are called at every transition to began, changed, ended
    /// (recognized) and cancelled, after the recognizer's delayed transitions are delivered.
    public func addTarget<Target: AnyObject>(
        _ target: Target, action: ActionName, _ method: @escaping (Target) -> (GestureRecognizer) -> Void
    ) {
        let exists = actions.contains {
            if case let .target(existing, name, _) = $0 { existing.object === target && name == action } else { false }
        }
        guard !exists else { return }
        actions.append(.target(target: Weak(object: target), name: action) { object, recognizer in
            if let target = object as? Target { method(target)(recognizer) }
        })
    }

    /// Removes target/action pairs; nil for either matches every target or every action.
    public func removeTarget(_ target: AnyObject?, action: ActionName?) {
        actions.removeAll {
            guard case let .target(existing, name, _) = $0 else { return false }
            return (target == nil || existing.object === target) && (action == nil || name == action)
        }
    }

    /// Adds a closure called like a target's action. An error it throws is reported to
    /// the environment's diagnostics and changes nothing in the recognizer.
    @discardableResult
    public func addAction(_ action: @escaping (GestureRecognizer) throws -> Void) -> Token {
        let token = makeToken()
        actions.append(.closure(token, action))
        return token
    }

    /// Removes a closure added with ``addAction(_:)``.
    public func removeAction(_ token: Token) {
        actions.removeAll { if case let .closure(existing, _) = $0 { existing == token } else { false } }
    }

    /// Adds an observer called on every state write, including `changed -> changed`
    /// and the reset to `possible`, with the old and new state.
    @discardableResult
    public func addStateObserver(
        _ observer: @escaping (GestureRecognizer, _ from: GestureRecognizerState, _ to: GestureRecognizerState) -> Void
    ) -> Token {
        let token = makeToken()
        observers.append((token, observer))
        return token
    }

    /// Removes an observer added with ``addStateObserver(_:)``.
    public func removeStateObserver(_ token: Token) {
        observers.removeAll { $0.0 == token }
    }

    private func makeToken() -> Token {
        nextToken += 1
        return Token(rawValue: nextToken)
    }

    // MARK: Failure requirements

    /// Makes this recognizer wait for `other` to fail before it may begin or be
    /// recognized; if `other` begins or is recognized, this one fails. One-way.
    ///
    /// - Throws: ``GestureError/failureRequirementCycle(_:)`` when `other` already
    ///   waits, directly or through others, for this recognizer.
    public func require(toFail other: GestureRecognizer) throws {
        if let path = other.requirementPath(to: self) {
            throw GestureError.failureRequirementCycle([label] + path.map(\.label))
        }
        guard !failureRequirements.contains(where: { $0 === other }) else { return }
        failureRequirements.append(other)
    }

    /// The chain of explicit requirements from `self` to `target`, both included, if any.
    func requirementPath(to target: GestureRecognizer) -> [GestureRecognizer]? {
        var visited: Set<ObjectIdentifier> = []
        func search(_ node: GestureRecognizer) -> [GestureRecognizer]? {
            if node === target { return [node] }
            guard visited.insert(ObjectIdentifier(node)).inserted else { return nil }
            for next in node.failureRequirements {
                if let rest = search(next) { return [node] + rest }
            }
            return nil
        }
        return search(self)
    }

    // MARK: Subclass hooks

    /// New touches for this recognizer.
    open func touchesBegan(_ touches: [Touch], with event: TouchEvent) {}
    /// Touches of this recognizer that moved.
    open func touchesMoved(_ touches: [Touch], with event: TouchEvent) {}
    /// Touches of this recognizer that lifted.
    open func touchesEnded(_ touches: [Touch], with event: TouchEvent) {}
    /// Touches of this recognizer that the system cancelled (a device went away).
    open func touchesCancelled(_ touches: [Touch], with event: TouchEvent) {}
    /// A touchpad gesture event of a family in ``acceptedTouchpadGestures``.
    open func touchpadGesture(_ event: TouchpadEvent) {}

    /// Called by the environment after a terminal state, when the recognizer goes back to
    /// `possible`: subclasses clear what they tracked. Call `super`.
    open func reset() {}

    /// Whether this recognizer, by beginning or being recognized, stops `other`. True by default.
    open func canPrevent(_ other: GestureRecognizer) -> Bool { true }
    /// Whether `other`, by beginning or being recognized, stops this recognizer. True by default.
    open func canBePrevented(by other: GestureRecognizer) -> Bool { true }
    /// Whether this recognizer waits for `other` to fail. False by default.
    open func shouldRequireFailure(of other: GestureRecognizer) -> Bool { false }
    /// Whether `other` waits for this recognizer to fail. False by default.
    open func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { false }

    /// Stops delivering `touch` to this recognizer for the rest of its life.
    public final func ignore(_ touch: Touch, for event: TouchEvent) {
        arbitration.touchIDs.removeAll { $0 == touch.id }
    }

    /// Asks to move to `newState`. The environment checks the move is legal, applies
    /// delegate and arbitration rules (it may delay the move until required
    /// recognizers fail, or turn it into `failed`), then notifies observers and targets.
    public final func transition(to newState: GestureRecognizerState) {
        if let environment {
            environment.request(self, newState)
        } else if state.canTransition(to: newState, continuous: isContinuous) {
            write(newState)
            deliverActions(for: newState, diagnostics: nil)
        }
    }

    /// Starts the recognizer's one timer, replacing any running one. `name` appears in
    /// the transition log (`timer tap-interval`). The timer is cancelled on reset.
    public final func setTimer(at deadline: Timestamp, named name: String, _ fire: @escaping (Timestamp) -> Void) {
        cancelTimer()
        guard let environment else { return }
        arbitration.timerName = name
        arbitration.timerToken = environment.schedule(self, at: deadline, fire)
    }

    /// Cancels the recognizer's timer, if one is running.
    public final func cancelTimer() {
        if let token = arbitration.timerToken {
            environment?.scheduler.cancel(token)
            arbitration.timerToken = nil
        }
    }

    // MARK: Location

    /// The kind of device the recognizer is following in this sequence (nil when idle).
    /// It stays set after the touches lift, until the recognizer is reset.
    public var touchType: TouchType? { arbitration.trackedType }

    /// The device the recognizer is following in this sequence: where its first touch
    /// landed, or its touchpad gesture began (nil when idle). Kept until it is reset.
    public var device: DeviceID? { arbitration.trackedDevice }

    /// The number of touches the recognizer is tracking; for a touchpad gesture, its finger
    /// count. Once the touches have lifted (a recognition delivered after a wait), the most
    /// touches it held, until it is reset.
    public var numberOfTouches: Int {
        if !arbitration.touchIDs.isEmpty { return arbitration.touchIDs.count }
        return arbitration.touchpadFingers > 0 ? arbitration.touchpadFingers : arbitration.lifted.count
    }

    /// The touches the recognizer is tracking, in the order they began.
    public var touches: [Touch] {
        guard let environment else { return [] }
        return arbitration.touchIDs.compactMap { environment.liveTouch($0) }
    }

    /// The centroid of the recognizer's touches. For a touchpad gesture, the offset in
    /// millimetres from where the gesture began (libinput gives only deltas). Once the
    /// touches have lifted, where they were when the recognizer last held the most of them.
    public func location(in space: CoordinateSpace = .millimetres) -> Point {
        guard !arbitration.touchIDs.isEmpty, let environment else {
            guard arbitration.trackedType == .direct
                || arbitration.trackedType == .indirect && environment?.takesFingers(self, of: arbitration.trackedDevice) == true else {
                return arbitration.touchpadOffset
            }
            return space == .millimetres ? arbitration.lifted.location : arbitration.lifted.normalizedLocation
        }
        var sum = Point.zero
        var count = 0.0
        for id in arbitration.touchIDs {
            if let touch = environment.liveTouch(id) {
                sum += touch.location(in: space)
                count += 1
            }
        }
        return count > 0 ? sum / count : .zero
    }

    /// The location of the recognizer's `index`th touch (in the order touches began).
    public func location(ofTouch index: Int, in space: CoordinateSpace = .millimetres) -> Point {
        guard arbitration.touchIDs.indices.contains(index), let touch = environment?.liveTouch(arbitration.touchIDs[index]) else {
            return arbitration.touchpadOffset
        }
        return touch.location(in: space)
    }

    // MARK: Internals used by the environment

    /// Writes the state and tells the observers; the only place `state` is assigned.
    func write(_ newState: GestureRecognizerState) {
        let old = state
        state = newState
        for (_, observer) in observers { observer(self, old, newState) }
    }

    func deliverActions(for newState: GestureRecognizerState, diagnostics: ((GestureDiagnostic) -> Void)?) {
        guard newState != .possible, newState != .failed else { return }
        for action in actions {
            switch action {
            case let .target(target, _, perform):
                if let object = target.object { perform(object, self) }
            case let .closure(_, body):
                do {
                    try body(self)
                } catch {
                    diagnostics?(GestureDiagnostic(message: "\(label): action threw \(error)"))
                }
            }
        }
    }

    /// Whether the recognizer still takes input in this sequence: not once it is done,
    /// nor while it waits to deliver its end.
    var receivesInput: Bool {
        enabled && !state.isTerminal && arbitration.pending.last != .ended
    }
}
