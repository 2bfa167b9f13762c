import TouchGestures

/// How many fingers one gesture takes from one kind of input: the counts a rule may ask
/// for, what `check` says when it asks for others, and the counts the built-in catalogue
/// binds.
///
/// The one table of finger limits: the parser, the catalogue, `Rule.touchpadInput` and
/// `doctor` read it, as they read ``TunableKey`` for tunables. A gesture and input not
/// listed takes any count a rule can write (``written``).
public struct FingerLimit: Sendable {
    /// Where a gesture's fingers are counted.
    public enum Input: Sendable {
        /// A touchscreen's touches.
        case touchscreen
        /// libinput's touchpad gestures: swipe, pinch, hold and tap buttons.
        case libinput
        /// A touchpad's own contacts, read beside libinput.
        case contacts
    }

    let gesture: GestureKind
    let input: Input
    /// The counts a rule may ask for.
    let counts: ClosedRange<Int>
    /// The counts the built-in catalogue binds, one rule each; nil where it binds the
    /// gesture without naming fingers, or not at all.
    let catalogued: ClosedRange<Int>?
    /// What `check` says of a rule asking for `fingers` outside ``counts``; nil where
    /// ``counts`` is every count a rule can write, which the key's own range checks.
    let complaint: (@Sendable (_ gesture: GestureKind, _ fingers: Int, _ counts: ClosedRange<Int>) -> String)?

    init(gesture: GestureKind, input: Input, counts: ClosedRange<Int>, catalogued: ClosedRange<Int>?,
         complaint: (@Sendable (GestureKind, Int, ClosedRange<Int>) -> String)? = nil) {
        self.gesture = gesture
        self.input = input
        self.counts = counts
        self.catalogued = catalogued
        self.complaint = complaint
    }

    /// Any rule's `fingers`, `min-fingers` and `max-fingers`: ten fingers on two hands.
    public static let written = 1...10

    /// The fingers a rule of `gesture` needs when it names none: two to pinch or rotate, one otherwise.
    static func defaultCount(_ gesture: GestureKind) -> Int {
        switch gesture {
        case .pinch, .rotation: 2
        case .tap, .longPress, .swipe, .pan, .edgePan, .stroke: 1
        }
    }

    /// Every limit, by gesture and input.
    static let all: [FingerLimit] = [
        // libinput taps with 1, 2 or 3 fingers as BTN_LEFT, BTN_RIGHT and BTN_MIDDLE; no more.
        FingerLimit(gesture: .tap, input: .libinput, counts: 1...3, catalogued: 1...3) { _, fingers, counts in
            "touchpads tap with \(spelled(counts)) fingers (libinput has no \(fingers)-finger tap); remove source = \"libinput\" to read the fingers instead"
        },
        FingerLimit(gesture: .tap, input: .touchscreen, counts: written, catalogued: 1...3),
        // libinput's holds count any fingers; beyond four a touchpad rarely tells them apart.
        FingerLimit(gesture: .longPress, input: .libinput, counts: written, catalogued: 1...4),
        FingerLimit(gesture: .longPress, input: .touchscreen, counts: written, catalogued: 1...3),
        // libinput scrolls with one and two fingers: its swipes start at three.
        FingerLimit(gesture: .swipe, input: .libinput, counts: 3...written.upperBound, catalogued: 3...4, complaint: libinputScrolls),
        FingerLimit(gesture: .pan, input: .libinput, counts: 3...written.upperBound, catalogued: nil, complaint: libinputScrolls),
        FingerLimit(gesture: .swipe, input: .touchscreen, counts: written, catalogued: 1...3),
        FingerLimit(gesture: .pinch, input: .libinput, counts: 2...written.upperBound, catalogued: 2...4, complaint: tooFew),
        FingerLimit(gesture: .rotation, input: .libinput, counts: 2...written.upperBound, catalogued: nil, complaint: tooFew),
        FingerLimit(gesture: .pinch, input: .touchscreen, counts: written, catalogued: 2...3),
        // A stroke drawn with more than three fingers is not told apart on a screen.
        FingerLimit(gesture: .stroke, input: .touchscreen, counts: 1...3, catalogued: nil) { _, fingers, counts in
            "strokes on a touchscreen take \(counts.lowerBound) to \(counts.upperBound) fingers, not \(fingers)"
        },
        // One finger on a touchpad is the pointer (too few is the pointing check's to say);
        // more than four do not fit a laptop's pad.
        FingerLimit(gesture: .stroke, input: .contacts, counts: 2...4, catalogued: nil) { _, fingers, counts in
            "strokes on a touchpad take \(counts.lowerBound) to \(counts.upperBound) fingers, not \(fingers)"
        },
    ]

    /// The limit of `gesture` from `input`, nil when it takes any written count.
    static func of(_ gesture: GestureKind, on input: Input) -> FingerLimit? {
        all.first { $0.gesture == gesture && $0.input == input }
    }

    /// The counts `gesture` may take from `input`.
    public static func counts(_ gesture: GestureKind, on input: Input) -> ClosedRange<Int> {
        of(gesture, on: input)?.counts ?? written
    }

    /// The counts the catalogue binds of `gesture` from `input` (none when it names none).
    static func catalogued(_ gesture: GestureKind, on input: Input) -> [Int] {
        of(gesture, on: input)?.catalogued.map(Array.init) ?? []
    }

    /// What `check` says of `fingers`, nil when they are within the limit. On a
    /// touchpad's contacts too few are the pointing check's to say (one finger is the
    /// pointer, two scroll), with its own reason.
    func complaint(about fingers: Int) -> String? {
        let within = input == .contacts ? fingers <= counts.upperBound : counts.contains(fingers)
        return within ? nil : complaint?(gesture, fingers, counts)
    }

    private static func libinputScrolls(_ gesture: GestureKind, _ fingers: Int, _ counts: ClosedRange<Int>) -> String {
        "touchpad \(gesture.rawValue)s need \(counts.lowerBound) or more fingers: libinput scrolls with 1 and 2"
    }

    private static func tooFew(_ gesture: GestureKind, _ fingers: Int, _ counts: ClosedRange<Int>) -> String {
        "touchpad \(gesture.rawValue)s need \(counts.lowerBound) or more fingers"
    }

    /// `1, 2 or 3`.
    private static func spelled(_ counts: ClosedRange<Int>) -> String {
        let words = counts.map(String.init)
        return words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
