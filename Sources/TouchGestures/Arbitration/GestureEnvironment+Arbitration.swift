// How requested transitions become state: require(toFail:) with delayed delivery,
// exclusivity unless simultaneous recognition is allowed, and the delegate's veto.
extension GestureEnvironment {
    /// The funnel every requested transition goes through.
    func request(_ recognizer: GestureRecognizer, _ next: GestureRecognizerState) {
        if !recognizer.arbitration.pending.isEmpty {
            requestWhileWaiting(recognizer, next)
            return
        }
        let old = recognizer.state
        guard old.canTransition(to: next, continuous: recognizer.isContinuous) else {
            report("\(recognizer.label) asked for \(old) -> \(next), which is not a legal transition")
            return
        }
        if old == .possible && next != .failed {
            leavePossible(recognizer, next)
        } else {
            commit(recognizer, next)
        }
    }

    /// A recognizer waiting for others to fail keeps its requests: `changed` folds into
    /// the delayed `began`, `ended` queues behind it, and giving up fails it.
    private func requestWhileWaiting(_ recognizer: GestureRecognizer, _ next: GestureRecognizerState) {
        switch next {
        case .changed:
            break
        case .ended where recognizer.isContinuous:
            if recognizer.arbitration.pending.last != .ended { recognizer.arbitration.pending.append(.ended) }
        case .failed, .cancelled:
            stopWaiting(recognizer)
            commit(recognizer, .failed)
        case .possible, .began, .ended:
            report("\(recognizer.label) asked for \(next) while waiting to \(recognizer.arbitration.pending[0])")
        }
    }

    private func leavePossible(_ recognizer: GestureRecognizer, _ next: GestureRecognizerState) {
        var blocked = false
        for other in recognizers where other !== recognizer && requires(recognizer, other) {
            if other.state.isActive || winners.contains(where: { $0 === other }) {
                commit(recognizer, .failed, cause: .requirementSucceeded(other.label))
                return
            }
            if !blocked && isBlocker(other, of: recognizer) { blocked = true }
        }
        if blocked {
            recognizer.arbitration.pending = [next]
            waiters.append(recognizer)
            return
        }
        proceed(recognizer, next, cause: nil)
    }

    /// Leaves `possible` once no requirement stands in the way.
    private func proceed(_ recognizer: GestureRecognizer, _ next: GestureRecognizerState, cause: TransitionCause?) {
        if let delegate = recognizer.delegate, !delegate.gestureRecognizerShouldBegin(recognizer) {
            commit(recognizer, .failed, cause: .delegateRefused)
            return
        }
        if let winner = winners.first(where: { sameGesture($0, recognizer) && excludes($0, recognizer) }) {
            commit(recognizer, .failed, cause: .excludedBy(winner.label))
            return
        }
        commit(recognizer, next, cause: cause)
    }

    /// Applies a transition: writes it, logs it, calls actions, then lets the others
    /// react. A nil `cause` means the input being delivered; it is only spelled out when
    /// someone reads the log.
    func commit(_ recognizer: GestureRecognizer, _ next: GestureRecognizerState, cause: TransitionCause? = nil) {
        let old = recognizer.state
        recognizer.write(next)
        if transitionObserver != nil { record(recognizer, from: old, to: next, cause: cause ?? currentCause()) }
        // UIKit cancels the view's touches before the action runs, so the action never
        // sees a view still acting on the gesture it claimed.
        if view != nil { viewRecognizerChanged(recognizer) }
        recognizer.deliverActions(for: next, diagnostics: diagnosticHandler)
        if next.isTerminal { recognizer.cancelTimer() }
        if old == .possible && (next == .began || next == .ended) {
            didWin(recognizer)
        } else if next == .failed && !waiters.isEmpty {
            didFail(recognizer)
        }
    }

    func record(_ recognizer: GestureRecognizer, from: GestureRecognizerState, to: GestureRecognizerState, cause: TransitionCause) {
        transitionObserver?(TransitionRecord(
            recognizer: recognizer.label, from: from, to: to, isDiscrete: !recognizer.isContinuous,
            cause: cause, timestamp: currentTime))
    }

    /// A recognizer began or was recognized: those that required it to fail fail, and so
    /// do those it excludes.
    private func didWin(_ winner: GestureRecognizer) {
        winners.append(winner)
        for other in recognizers where other !== winner && other.state == .possible && other.arbitration.isTracking {
            if requires(other, winner) {
                stopWaiting(other)
                commit(other, .failed, cause: .requirementSucceeded(winner.label))
            } else if sameGesture(winner, other) && excludes(winner, other) {
                stopWaiting(other)
                commit(other, .failed, cause: .excludedBy(winner.label))
            }
        }
    }

    /// A recognizer failed: those waiting only for it get their delayed transitions.
    private func didFail(_ failed: GestureRecognizer) {
        for waiting in waiters where requires(waiting, failed) {
            guard waiting.state == .possible, !waiting.arbitration.pending.isEmpty, !hasBlocker(waiting) else { continue }
            let steps = waiting.arbitration.pending
            stopWaiting(waiting)
            let cause = TransitionCause.requirementFailed(failed.label)
            proceed(waiting, steps[0], cause: cause)
            for step in steps.dropFirst() where waiting.state.canTransition(to: step, continuous: waiting.isContinuous) {
                commit(waiting, step, cause: cause)
            }
        }
    }

    /// Drops a recognizer's delayed transitions.
    func stopWaiting(_ recognizer: GestureRecognizer) {
        guard !recognizer.arbitration.pending.isEmpty else { return }
        recognizer.arbitration.pending.removeAll()
        waiters.removeAll { $0 === recognizer }
    }

    /// Cancels (or fails) a recognizer that was turned off or detached.
    func recognizerWasDisabled(_ recognizer: GestureRecognizer) {
        if recognizer.state.isActive {
            commit(recognizer, .cancelled, cause: .disabled)
        } else if recognizer.state == .possible && recognizer.arbitration.isTracking {
            stopWaiting(recognizer)
            commit(recognizer, .failed, cause: .disabled)
        }
        recognizer.arbitration.touchIDs.removeAll()
        recognizer.arbitration.touchpadFingers = 0
        endSequenceIfSettled()
    }

    /// Whether `recognizer` waits for `other` to fail, by any of the five ways to say so.
    func requires(_ recognizer: GestureRecognizer, _ other: GestureRecognizer) -> Bool {
        recognizer.failureRequirements.contains { $0 === other }
            || recognizer.shouldRequireFailure(of: other)
            || other.shouldBeRequiredToFail(by: recognizer)
            || (recognizer.delegate?.gestureRecognizer(recognizer, shouldRequireFailureOf: other) ?? false)
            || (other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: recognizer) ?? false)
    }

    /// Whether a recognizer that `recognizer` requires to fail is still deciding.
    private func hasBlocker(_ recognizer: GestureRecognizer) -> Bool {
        recognizers.contains { other in
            other !== recognizer && requires(recognizer, other) && isBlocker(other, of: recognizer)
        }
    }

    /// Whether `other`, which `recognizer` requires to fail, is still deciding.
    private func isBlocker(_ other: GestureRecognizer, of recognizer: GestureRecognizer) -> Bool {
        guard other.state == .possible && other.arbitration.isTracking else { return false }
        // Two recognizers waiting for each other would wait forever. require(toFail:)
        // rejects such cycles; a delegate can still make one, so break it here.
        if !other.arbitration.pending.isEmpty && requires(other, recognizer) {
            report("\(recognizer.label) and \(other.label) require each other to fail; ignoring that requirement")
            return false
        }
        return true
    }

    /// Whether two recognizers follow the same gesture: the same landing, or the same
    /// fingers (a recognizer still deciding an earlier gesture that took the new fingers).
    func sameGesture(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        if a.arbitration.gesture == b.arbitration.gesture { return true }
        if a.arbitration.touchpadFingers > 0 && b.arbitration.touchpadFingers > 0 { return true }
        return a.arbitration.touchIDs.contains { b.arbitration.touchIDs.contains($0) }
    }

    /// Whether `winner`, having begun or been recognized, stops `other` in this sequence.
    func excludes(_ winner: GestureRecognizer, _ other: GestureRecognizer) -> Bool {
        winner !== other && winner.canPrevent(other) && other.canBePrevented(by: winner)
            && !(winner.delegate?.gestureRecognizer(winner, shouldRecognizeSimultaneouslyWith: other) ?? false)
            && !(other.delegate?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: winner) ?? false)
    }

    /// The cause of a transition requested now, from the input being delivered.
    private func currentCause() -> TransitionCause {
        switch currentInput {
        case .none: .touches("request")
        case let .timer(name): .timer(name)
        case let .touchpad(event): .touchpad(event)
        case let .touches(event): .touches(Self.describe(event.changedTouches))
        }
    }

    /// `down 1 move 2,3 up 4`: the changed touches of a frame grouped by phase.
    static func describe(_ touches: [Touch]) -> String {
        let groups: [(String, TouchPhase)] = [("down", .began), ("move", .moved), ("up", .ended), ("cancel", .cancelled)]
        var parts: [String] = []
        for (word, phase) in groups {
            let ids = touches.filter { $0.phase == phase || (phase == .moved && $0.phase == .stationary) }.map { String($0.id) }
            if !ids.isEmpty { parts.append("\(word) \(ids.joined(separator: ","))") }
        }
        return parts.joined(separator: " ")
    }
}
