import TouchGestures

/// Keeps a rule with a window condition out of any gesture that began while another
/// window had the focus: its recognizer never takes the gesture's touches, so it never
/// stands in the way of a rule that waits for it to fail.
final class WindowFilter: GestureRecognizerDelegate {
    let rule: String
    let condition: WindowCondition
    let focus: FocusContext
    /// The rule's `device-name` filter, asked after the window condition holds.
    let inner: DeviceNameFilter?

    init(rule: String, condition: WindowCondition, focus: FocusContext, inner: DeviceNameFilter?) {
        self.rule = rule
        self.condition = condition
        self.focus = focus
        self.inner = inner
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        focus.admits(rule, condition) && (inner?.gestureRecognizer(recognizer, shouldReceive: touch) ?? true)
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive event: TouchpadEvent) -> Bool {
        focus.admits(rule, condition) && (inner?.gestureRecognizer(recognizer, shouldReceive: event) ?? true)
    }
}
