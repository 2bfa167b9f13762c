// What the environment's view sees of the touches, as UIKit decides it with
// cancelsTouchesInView, delaysTouchesBegan and delaysTouchesEnded.
struct ViewTouch {
    enum Status {
        /// Not shown yet: a recognizer delays touchesBegan. `ended` is set once it lifted.
        case held(ended: Bool)
        /// The view has seen touchesBegan.
        case delivered
        /// Lifted, but a recognizer delays touchesEnded.
        case endDelayed
        /// The view is done with it (ended, cancelled, or never to be shown).
        case finished
    }

    var touch: Touch
    var status: Status
    var recognizers: [GestureRecognizer]
}

extension GestureEnvironment {
    func viewDeliver(began: [Touch], moved: [Touch], ended: [Touch], cancelled: [Touch]) {
        guard let view else { return }
        let time = currentTime
        var toBegin: [Touch] = []
        for touch in began {
            let bound = recognizers.filter { $0.arbitration.touchIDs.contains(touch.id) }
            let claimed = bound.contains { recognizer in
                recognizer.cancelsTouchesInView && winners.contains { $0 === recognizer }
            }
            let holds = bound.contains { $0.delaysTouchesBegan && $0.state == .possible }
            let status: ViewTouch.Status = claimed ? .finished : holds ? .held(ended: false) : .delivered
            viewTouches[touch.id] = ViewTouch(touch: touch, status: status, recognizers: bound)
            if case .delivered = status { toBegin.append(touch) }
        }
        if !toBegin.isEmpty { view.touchesBegan(toBegin, at: time) }

        var toMove: [Touch] = []
        for touch in moved {
            guard var entry = viewTouches[touch.id] else { continue }
            entry.touch = touch
            viewTouches[touch.id] = entry
            if case .delivered = entry.status { toMove.append(touch) }
        }
        if !toMove.isEmpty { view.touchesMoved(toMove, at: time) }

        var toEnd: [Touch] = []
        for touch in ended {
            guard var entry = viewTouches[touch.id] else { continue }
            entry.touch = touch
            switch entry.status {
            case .held: entry.status = .held(ended: true)
            case .delivered:
                let delays = entry.recognizers.contains { $0.delaysTouchesEnded && $0.state == .possible && $0.environment === self }
                entry.status = delays ? .endDelayed : .finished
                if !delays { toEnd.append(touch) }
            case .endDelayed, .finished: break
            }
            viewTouches[touch.id] = entry
        }
        if !toEnd.isEmpty { view.touchesEnded(toEnd, at: time) }

        var toCancel: [Touch] = []
        for touch in cancelled {
            guard var entry = viewTouches[touch.id] else { continue }
            switch entry.status {
            case .delivered, .endDelayed: toCancel.append(touch)
            case .held, .finished: break
            }
            entry.status = .finished
            viewTouches[touch.id] = entry
        }
        if !toCancel.isEmpty { view.touchesCancelled(toCancel, at: time) }
    }

    /// A recognizer that decided about earlier touches and was reset for a new gesture no
    /// longer has a say in when the view sees those touches.
    func viewForget(_ recognizer: GestureRecognizer) {
        for id in viewTouches.keys {
            viewTouches[id]?.recognizers.removeAll { $0 === recognizer }
        }
    }

    /// Forgets touches that are gone and that the view no longer waits on.
    func viewTouchesGone(_ ids: [Int]) {
        for id in ids {
            if case .finished = viewTouches[id]?.status { viewTouches[id] = nil }
        }
    }

    /// Re-decides the touches a recognizer was holding back after its state changed.
    func viewRecognizerChanged(_ recognizer: GestureRecognizer) {
        guard let view else { return }
        let time = currentTime
        let won = recognizer.state == .began || recognizer.state == .ended
        for id in viewTouches.keys.sorted() {
            guard var entry = viewTouches[id], entry.recognizers.contains(where: { $0 === recognizer }) else { continue }
            let touch = entry.touch
            if won && recognizer.cancelsTouchesInView {
                switch entry.status {
                case .delivered, .endDelayed: view.touchesCancelled([touch], at: time)
                case .held, .finished: break
                }
                entry.status = .finished
            } else {
                let undecided = { (flag: KeyPath<GestureRecognizer, Bool>) in
                    entry.recognizers.contains { $0[keyPath: flag] && $0.state == .possible && $0.environment === self }
                }
                switch entry.status {
                case let .held(ended) where !undecided(\.delaysTouchesBegan):
                    view.touchesBegan([touch], at: time)
                    if ended {
                        if undecided(\.delaysTouchesEnded) {
                            entry.status = .endDelayed
                        } else {
                            view.touchesEnded([touch], at: time)
                            entry.status = .finished
                        }
                    } else {
                        entry.status = .delivered
                    }
                case .endDelayed where !undecided(\.delaysTouchesEnded):
                    view.touchesEnded([touch], at: time)
                    entry.status = .finished
                case .held, .endDelayed, .delivered, .finished:
                    break
                }
            }
            let gone = touch.phase.isTerminal
            if case .finished = entry.status, gone { viewTouches[id] = nil } else { viewTouches[id] = entry }
        }
    }
}
