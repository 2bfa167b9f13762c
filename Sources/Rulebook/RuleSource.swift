import TouchGestures

/// Where a rule takes touchpad input from: the `source` key.
public enum RuleSource: String, CaseIterable, Sendable {
    /// libinput's gestures wherever libinput has the gesture; the fingers (contacts) for
    /// 4- and 5-finger taps, for edge pans and strokes on a `device = "touchpad"` rule, for
    /// strokes of 2 or more fingers on any device, and for the taps of semi-MT touchpads,
    /// which libinput takes for scrolling.
    case auto
    /// libinput's touchpad gestures: swipe, pinch, hold and 1-3 finger taps.
    case libinput
    /// The fingers on the pad, read beside libinput: every gesture, from real positions.
    case contacts
}

extension Rule {
    /// What the rule's recognizer takes from touchpads; nil when it takes nothing from
    /// them (a touchscreen rule; an edge pan on `device = "any"` without `source`, which
    /// stays on touchscreens as it always was).
    public var touchpadInput: TouchpadInput? {
        guard device != .touchscreen else { return nil }
        switch (source, gesture) {
        case (.contacts, _): return .contacts
        // libinput's touchpad gestures have no position: nothing starts at an edge.
        case (.libinput, .edgePan): return nil
        case (.libinput, _): return .gestures
        case (.auto, .edgePan): return device == .touchpad ? .contacts : nil
        // libinput has no 4- or 5-finger tap.
        case (.auto, .tap) where !FingerLimit.counts(.tap, on: .libinput).contains(fingers): return .contacts
        // A semi-MT pad's first finger jumps when a second lands, and libinput takes the
        // tap for scrolling: its taps come from its fingers.
        case (.auto, .tap): return .automatic
        // A stroke's path is only in the fingers; one finger on a touchpad is the pointer,
        // so a one-finger stroke on any device stays on touchscreens.
        case (.auto, .stroke):
            return device == .touchpad || fingers >= FingerLimit.counts(.stroke, on: .contacts).lowerBound ? .contacts : nil
        case (.auto, _): return .gestures
        }
    }
}
