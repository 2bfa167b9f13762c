/// The way a gesture went, in a rule file's words: a swipe's or pan's direction, a
/// pinch's `in` or `out`, a rotation's `clockwise` or `counterclockwise`. Its raw value
/// is the word (`TOUCHGEST_DIRECTION`, a stream's `direction`, `touchgest debug`).
public enum GestureDirection: String, Sendable, CaseIterable, CustomStringConvertible {
    case right, upRight = "up-right", up, upLeft = "up-left", left, downLeft = "down-left", down, downRight = "down-right"
    /// Pinch: the fingers moved apart (`out`, scale above 1) or together (`in`).
    case `in`, out
    /// Rotation, as seen on the surface.
    case clockwise, counterclockwise

    /// The direction of a single swipe direction; nil for none or several.
    public init?(_ swipe: SwipeDirection) {
        guard let name = SwipeDirection.named.first(where: { $0.direction == swipe })?.name else { return nil }
        self.init(rawValue: name)
    }

    public var description: String { rawValue }
}
