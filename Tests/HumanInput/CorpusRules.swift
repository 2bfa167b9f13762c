/// The rule files the corpus runs through: what a user with every kind of gesture bound
/// would write, with default thresholds; and the same with a one-finger pan on the
/// touchscreen that competes with one-finger swipes the way UIKit apps pair them (the
/// pan waits for the swipes to fail), for the swipe-versus-drag samples.
public enum CorpusRules {
    /// The swipe rule's name for a device, finger count and heading, e.g. `tp3-left`.
    public static func swipe(touchpad: Bool, fingers: Int, _ heading: Heading) -> String {
        "\(touchpad ? "tp" : "ts")\(fingers)-\(heading.rawValue)"
    }

    public static let touchpadPinch = "tp-pinch"
    public static let touchpadRotation = "tp-rotate"
    public static func touchpadHold(_ fingers: Int) -> String { "tp-hold\(fingers)" }
    public static func touchpadTap(_ fingers: Int) -> String { "tp-tap\(fingers)" }
    public static let screenTap = "ts-tap"
    public static let screenDoubleTap = "ts-double-tap"
    public static let screenPress = "ts-press"
    /// The touchscreen long-press of `fingers` fingers (`ts-press` for one).
    public static func screenPress(_ fingers: Int) -> String { fingers == 1 ? screenPress : "ts-press\(fingers)" }
    public static let screenPinch = "ts-pinch"
    public static let screenRotation = "ts-rotate"
    public static let screenPan = "ts-pan"

    /// The rules with the competing pan.
    public static let withPan: String = {
        let oneFingerSwipes = Heading.allCases.map { "\"\(swipe(touchpad: false, fingers: 1, $0))\"" }.joined(separator: ", ")
        return text + """

            [rule.\(screenPan)]
            gesture = "pan"
            device = "touchscreen"
            fingers = 1
            on-begin = "true"
            on-end = "true"
            require-to-fail = [\(oneFingerSwipes)]

            """
    }()

    /// The rules for every kind, without the pan.
    public static let text: String = {
        var text = "# The gesture corpus's rules (Tests/HumanInput): every kind it generates, default thresholds.\n"
        func rule(_ name: String, _ keys: String) {
            text += "\n[rule.\(name)]\n\(keys)\n"
        }
        for fingers in [3, 4] {
            for heading in Heading.allCases {
                rule(swipe(touchpad: true, fingers: fingers, heading),
                     "gesture = \"swipe\"\ndevice = \"touchpad\"\nfingers = \(fingers)\ndirection = \"\(heading.rawValue)\"\ncommand = \"true\"")
            }
        }
        for fingers in 1...3 {
            for heading in Heading.allCases {
                rule(swipe(touchpad: false, fingers: fingers, heading),
                     "gesture = \"swipe\"\ndevice = \"touchscreen\"\nfingers = \(fingers)\ndirection = \"\(heading.rawValue)\"\ncommand = \"true\"")
            }
        }
        let continuous = "on-begin = \"true\"\non-end = \"true\""
        rule(touchpadPinch, "gesture = \"pinch\"\ndevice = \"touchpad\"\n\(continuous)")
        rule(touchpadRotation, "gesture = \"rotation\"\ndevice = \"touchpad\"\n\(continuous)")
        for fingers in [3, 4] {
            rule(touchpadHold(fingers), "gesture = \"long-press\"\ndevice = \"touchpad\"\nfingers = \(fingers)\ncommand = \"true\"")
        }
        for fingers in [2, 3] {
            rule(touchpadTap(fingers), "gesture = \"tap\"\ndevice = \"touchpad\"\nfingers = \(fingers)\ncommand = \"true\"")
        }
        rule(screenTap, "gesture = \"tap\"\ndevice = \"touchscreen\"\ncommand = \"true\"")
        rule(screenDoubleTap, "gesture = \"tap\"\ndevice = \"touchscreen\"\ntaps = 2\ncommand = \"true\"")
        rule(screenPress, "gesture = \"long-press\"\ndevice = \"touchscreen\"\ncommand = \"true\"")
        rule(screenPress(2), "gesture = \"long-press\"\ndevice = \"touchscreen\"\nfingers = 2\ncommand = \"true\"")
        rule(screenPinch, "gesture = \"pinch\"\ndevice = \"touchscreen\"\n\(continuous)")
        rule(screenRotation, "gesture = \"rotation\"\ndevice = \"touchscreen\"\n\(continuous)")
        return text
    }()
}
