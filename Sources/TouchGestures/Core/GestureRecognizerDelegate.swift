/// Fine-tunes a recognizer's behaviour, as UIKit's `UIGestureRecognizerDelegate`.
///
/// Every method has a default in an extension; implement only what you need.
public protocol GestureRecognizerDelegate: AnyObject {
    /// Asked when the recognizer is about to leave `possible` for `began` or
    /// `recognized`; returning false makes it fail instead.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool

    /// Asked before a new touch is delivered to the recognizer; false hides the touch from it.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool

    /// Asked before a touchpad gesture is delivered to the recognizer; false hides it.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive event: TouchpadEvent) -> Bool

    /// Whether both may recognize in one sequence. Either side's true is enough.
    func gestureRecognizer(
        _ recognizer: GestureRecognizer,
        shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool

    /// Whether `recognizer` must wait for `other` to fail (decided per sequence).
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool

    /// Whether `other` must wait for `recognizer` to fail (decided per sequence).
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
}

extension GestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive event: TouchpadEvent) -> Bool { true }
    public func gestureRecognizer(
        _ recognizer: GestureRecognizer,
        shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool { false }
}

/// Receives the touches recognizers let through, as a UIKit view does.
///
/// `cancelsTouchesInView`, `delaysTouchesBegan` and `delaysTouchesEnded` decide what
/// reaches it and when.
public protocol TouchSink: AnyObject {
    func touchesBegan(_ touches: [Touch], at time: Timestamp)
    func touchesMoved(_ touches: [Touch], at time: Timestamp)
    func touchesEnded(_ touches: [Touch], at time: Timestamp)
    func touchesCancelled(_ touches: [Touch], at time: Timestamp)
}
