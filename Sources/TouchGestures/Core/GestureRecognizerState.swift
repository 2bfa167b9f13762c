/// The states of a gesture recognizer, as UIKit's `UIGestureRecognizer.State`.
///
/// Discrete recognizers go `possible -> recognized` or `possible -> failed`. Continuous
/// ones go `possible -> began -> changed* -> ended | cancelled`, or `possible -> failed`.
/// After a terminal state the environment resets the recognizer to `possible`.
public enum GestureRecognizerState: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case possible, began, changed, ended, cancelled, failed

    /// A discrete recognizer's success: the same value as `ended`.
    public static let recognized = GestureRecognizerState.ended

    /// Whether the recognizer is done with the current gesture.
    public var isTerminal: Bool {
        switch self {
        case .ended, .cancelled, .failed: true
        case .possible, .began, .changed: false
        }
    }

    /// Whether the recognizer is in the middle of a continuous gesture.
    public var isActive: Bool { self == .began || self == .changed }

    public var description: String {
        switch self {
        case .possible: "possible"
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }

    /// Whether a recognizer may move from `self` to `next` by its own request.
    ///
    /// The move back to `possible` is not here: only the environment's reset makes it.
    public func canTransition(to next: GestureRecognizerState, continuous: Bool) -> Bool {
        switch (self, next) {
        case (.possible, .failed): true
        case (.possible, .ended): !continuous
        case (.possible, .began): continuous
        case (.began, .changed), (.began, .ended), (.began, .cancelled),
             (.changed, .changed), (.changed, .ended), (.changed, .cancelled):
            continuous
        case (.possible, .possible), (.possible, .changed), (.possible, .cancelled),
             (.began, .possible), (.began, .began), (.began, .failed),
             (.changed, .possible), (.changed, .began), (.changed, .failed),
             (.ended, _), (.cancelled, _), (.failed, _):
            false
        }
    }
}
