import TouchGestures

/// A shape to recognize, as a person writes it in a rule file: a short list of points in
/// a box from (0, 0), the top-left corner, to (1, 1), the bottom-right (y grows downward,
/// as on the screen), in the order they are drawn. `[[0,0],[0.5,1],[1,0]]` is a V drawn
/// from its top-left.
///
/// Only the shape and its direction count: the box is scaled to whatever size the stroke
/// has, and where it is drawn does not matter.
public struct StrokeTemplate: Sendable, Equatable {
    /// The points as written.
    public let points: [Point]
    /// The whole template, prepared for the final comparison.
    let shape: StrokeShape
    /// Its first 1/16, 2/16, ... 16/16, prepared for the check made while the fingers move.
    let prefixes: [StrokeShape]
    /// Whether the template is itself a straight stroke: it scores at least
    /// ``StrokeDefaults/straightTemplate`` against the line from its first point to its last.
    public let isStraight: Bool

    /// Fewest points of a template: a straight stroke.
    public static let minimumPoints = 2
    /// Most points of a template: more than a person reads or writes, and `touchgest
    /// learn` writes at most ``StrokeLearner/maximumTemplatePoints``.
    public static let maximumPoints = 64
    /// The template's points must spread at least this far, in the box, on one side: a
    /// template whose points lie closer together has no shape to compare.
    public static let minimumExtent = 0.1

    /// Why a list of points is no template.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case tooFewPoints(Int)
        case tooManyPoints(Int)
        /// A coordinate outside 0...1 (or not finite), at `index`.
        case outsideTheBox(index: Int)
        /// The points lie within ``minimumExtent`` of each other.
        case noExtent

        public var description: String {
            switch self {
            case let .tooFewPoints(count):
                "a template needs at least \(StrokeTemplate.minimumPoints) points; this one has \(count)"
            case let .tooManyPoints(count):
                "a template has at most \(StrokeTemplate.maximumPoints) points; this one has \(count)"
            case let .outsideTheBox(index):
                "point \(index + 1) of the template lies outside the box; coordinates are 0 to 1"
            case .noExtent:
                "the template's points lie within \(fixedDecimals(StrokeTemplate.minimumExtent, 1)) of each other: it has no shape"
            }
        }
    }

    /// Makes a template of `points`, each coordinate 0 to 1.
    public init(points: [Point]) throws(Problem) {
        guard points.count >= Self.minimumPoints else { throw .tooFewPoints(points.count) }
        guard points.count <= Self.maximumPoints else { throw .tooManyPoints(points.count) }
        if let index = points.firstIndex(where: { !(0...1).contains($0.x) || !(0...1).contains($0.y) }) {
            throw .outsideTheBox(index: index)
        }
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        guard max(xs.max()! - xs.min()!, ys.max()! - ys.min()!) >= Self.minimumExtent,
              let shape = StrokeShape(points) else { throw .noExtent }
        self.points = points
        self.shape = shape
        isStraight = StrokeMatcher.straightness(of: points, shape: shape) >= StrokeDefaults.straightTemplate
        // The template is first laid out densely (as many points to a part as a part is
        // compared with), so that each part is cut at the right place along it whatever
        // its points' spacing.
        let perPart = StrokeDefaults.prefixPoints
        let dense = StrokeShape.resample(points, count: StrokeDefaults.prefixFractions * perPart + 1)!
        prefixes = (1...StrokeDefaults.prefixFractions).compactMap { part in
            StrokeShape(Array(dense[0...(part * perPart)]), count: StrokeDefaults.prefixPoints)
        }
    }

    public static func == (lhs: StrokeTemplate, rhs: StrokeTemplate) -> Bool { lhs.points == rhs.points }
}
