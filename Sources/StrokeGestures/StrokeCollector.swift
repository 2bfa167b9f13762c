import TouchGestures

/// Collects the strokes drawn on an environment's input: the paths a person draws to
/// teach a shape (`touchgest learn`), taken by the same recognizer that later matches
/// them, so that examples and strokes are measured alike.
///
/// It attaches one ``StrokeGestureRecognizer`` with no templates: it follows every stroke
/// of ``fingers`` fingers and fails it when the fingers lift, so it never stands in the
/// way of another recognizer.
public final class StrokeCollector {
    /// The recognizer that follows the strokes.
    public let recognizer = StrokeGestureRecognizer()
    private let group = StrokeGroup()
    /// Every stroke so far, in order, with why each ended (``StrokeReport/Entry/ending``:
    /// ``StrokeEnding/noTemplates`` for a whole stroke, ``StrokeEnding/extraFinger`` when
    /// more fingers landed).
    public private(set) var strokes: [StrokeReport] = []
    /// Called with each stroke as it ends.
    public var onStroke: ((StrokeReport) -> Void)?

    /// The number of fingers that draw.
    public var fingers: Int { recognizer.numberOfTouchesRequired }

    /// A collector of strokes of `fingers` fingers, on the kinds of device in `touchTypes`
    /// (touchpads through their fingers).
    public init(fingers: Int, touchTypes: Set<TouchType> = Set(TouchType.allCases), name: String = "learn") {
        recognizer.name = name
        recognizer.numberOfTouchesRequired = fingers
        recognizer.allowedTouchTypes = touchTypes
        group.add(recognizer)
        group.onReport = { [weak self] report in
            self?.strokes.append(report)
            self?.onStroke?(report)
        }
    }

    /// Starts collecting from `environment`'s input.
    public func attach(to environment: GestureEnvironment) {
        environment.attach(recognizer)
    }

    /// The paths of the strokes drawn whole with the right fingers, in millimetres.
    public var paths: [[Point]] {
        strokes.filter { $0.entries.first?.ending == .noTemplates }.map(\.path.points)
    }
}
