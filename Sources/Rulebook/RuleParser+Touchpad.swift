import TOML
import TouchGestures

/// What a rule can and cannot get from a touchpad, by where it takes touchpad input from.
extension RuleParser {
    /// libinput's limits on its touchpad gestures, and the rules that fingers read beside
    /// libinput would fire on ordinary pointing (one finger) or scrolling (two).
    mutating func checkTouchpadLimits(_ rule: Rule, table: TOMLTable, fingersGiven: Bool) {
        let fingersKey = table["fingers"] != nil ? "fingers" : "min-fingers"
        let at = Self.place(table, fingersGiven ? fingersKey : "gesture")
        if rule.device == .touchscreen, table["source"] != nil {
            warning("source chooses touchpad input, but rule '\(rule.name)' listens to touchscreens only", at: Self.place(table, "source", value: false))
        }
        switch rule.touchpadInput {
        case .gestures? where rule.device == .touchpad, .automatic? where rule.device == .touchpad:
            checkLibinputLimits(rule, at: at)
        case .contacts?:
            checkPointing(rule, table: table, at: at)
        case nil where rule.device == .touchpad && rule.gesture == .edgePan:
            error("edge-pan on a touchpad needs its fingers: libinput's touchpad gestures have no position; remove source = \"libinput\"",
                  at: Self.place(table, "source"))
        case .gestures?, .automatic?, nil:
            break
        }
    }

    private mutating func checkLibinputLimits(_ rule: Rule, at: TOMLPosition?) {
        if let complaint = FingerLimit.of(rule.gesture, on: .libinput)?.complaint(about: rule.fingers) {
            error(complaint, at: at)
        }
    }

    /// One finger on a touchpad is the pointer and two scroll: a rule on the fingers that
    /// could fire while the user only points is an error, one that fires while they point
    /// or scroll in a particular way is a warning, each with the reason.
    private mutating func checkPointing(_ rule: Rule, table: TOMLTable, at: TOMLPosition?) {
        let pad = rule.device == .touchpad ? "" : " (device = \"\(rule.device.rawValue)\" includes touchpads)"
        let heldDown = rule.held.buttons.map { !$0.isEmpty } ?? false
        switch rule.gesture {
        case .swipe where rule.fingers == 1 && heldDown, .pan where rule.fingers == 1 && heldDown, .stroke where rule.fingers == 1 && heldDown:
            // The finger that holds the pad down is no touch: the one that moves is the drag.
            warning("one finger moving while a touchpad is held down drags: this \(rule.gesture.rawValue) fires on every such drag, and the drag still happens\(pad); use 2 or more fingers unless that is what you want", at: at)
        case .swipe where rule.fingers == 1, .pan where rule.fingers == 1, .stroke where rule.fingers == 1:
            error("one finger on a touchpad moves the pointer: a 1-finger \(rule.gesture.rawValue) read from its fingers would fire on ordinary pointing\(pad); use 3 or more fingers, or device = \"touchscreen\"", at: at)
        case .swipe where rule.fingers == 2, .pan where rule.fingers == 2, .stroke where rule.fingers == 2:
            warning("two fingers moving on a touchpad scroll: this \(rule.gesture.rawValue) fires while you scroll, and the scrolling still happens\(pad); use 3 or more fingers unless that is what you want", at: at)
        case .longPress where rule.fingers == 1:
            warning("one finger on a touchpad is the pointer: a finger resting still for the press duration while you point fires this long-press\(pad)", at: at)
        case .edgePan where rule.fingers == 1:
            warning("one finger on a touchpad moves the pointer: pointing that starts within the edge zone (edge-width, mm) and moves inward fires this edge-pan\(pad); keep edge-width small or use 2 or more fingers", at: at)
        case .tap, .longPress, .swipe, .pan, .pinch, .rotation, .edgePan, .stroke:
            break
        }
    }
}
