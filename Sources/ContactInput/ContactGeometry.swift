import InputDevices
import TouchGestures

/// How a pad's raw axis values become millimetres and fractions of the pad, from what
/// its node declares (absinfo): the arithmetic of the contact reader with no libevdev,
/// so that hostile values can be tried on it (FuzzDevice). A device chooses every value
/// here, Int32's extremes included; nothing may trap or come out not finite.
public struct ContactGeometry: Sendable {
    /// One position axis as the device declares it.
    public struct Axis: Sendable {
        public var minimum: Int32
        public var maximum: Int32
        /// Units per millimetre; 0 or less for none.
        public var resolution: Int32

        public init(minimum: Int32, maximum: Int32, resolution: Int32) {
            self.minimum = minimum
            self.maximum = maximum
            self.resolution = resolution
        }
    }

    var minimum: Point
    var range: Point
    var millimetresPerUnit: Point
    /// The pad's size in millimetres.
    public var size: Size
    /// Millimetres per unit of ABS_MT_TOUCH_MAJOR; nil when the pad reports no touch size.
    var majorMillimetresPerUnit: Double?
    var hasPressure: Bool

    /// The geometry of axes `x` and `y`; nil when one spans nothing. `size` (the
    /// adapter's, finite and above 0) is spread over an axis with no resolution.
    /// `majorResolution` is ABS_MT_TOUCH_MAJOR's, when the pad has that axis (`hasMajor`).
    public init?(x: Axis, y: Axis, size: Size?, majorResolution: Int32?, hasMajor: Bool, hasPressure: Bool) {
        guard let width = axisExtent(minimum: x.minimum, maximum: x.maximum),
              let height = axisExtent(minimum: y.minimum, maximum: y.maximum) else { return nil }
        let range = Point(x: width, y: height)
        // The axis resolution when the pad has one; else the adapter's size (stated, from
        // udev, or libinput's assumption) spread over the axis range.
        func perUnit(_ resolution: Int32, _ range: Double, _ extent: Double?) -> Double {
            if resolution > 0 { return 1 / Double(resolution) }
            guard let extent, extent.isFinite, extent > 0 else { return 1 }
            return extent / range
        }
        let scale = Point(x: perUnit(x.resolution, range.x, size?.width), y: perUnit(y.resolution, range.y, size?.height))
        if let majorResolution, majorResolution > 0 {
            majorMillimetresPerUnit = 1 / Double(majorResolution)
        } else if hasMajor {
            // The kernel's documentation puts touch size in the position axes' units.
            majorMillimetresPerUnit = scale.x
        }
        minimum = Point(x: Double(x.minimum), y: Double(y.minimum))
        self.range = range
        millimetresPerUnit = scale
        self.size = Size(width: range.x * scale.x, height: range.y * scale.y)
        self.hasPressure = hasPressure
    }

    /// Where a raw position is: millimetres from the pad's corner, and fractions of it.
    public func location(_ x: Int32, _ y: Int32) -> (mm: Point, normalized: Point) {
        let raw = Point(x: Double(x) - minimum.x, y: Double(y) - minimum.y)
        return (Point(x: raw.x * millimetresPerUnit.x, y: raw.y * millimetresPerUnit.y),
                Point(x: raw.x / range.x, y: raw.y / range.y))
    }

    /// `count` fingers spread evenly from one corner of a semi-MT box to the other, in
    /// raw units. The corners come from the device and may be Int32's extremes: the
    /// arithmetic is in Double, and every finger lies between them.
    public static func spread(_ count: Int, from first: (x: Int32, y: Int32), to last: (x: Int32, y: Int32))
        -> [(key: Int, x: Int32, y: Int32)] {
        (0..<max(count, 0)).map { index in
            let along = count > 1 ? Double(index) / Double(count - 1) : 0
            let x = Double(first.x) + (Double(last.x) - Double(first.x)) * along
            let y = Double(first.y) + (Double(last.y) - Double(first.y)) * along
            return (index, Int32(x.rounded()), Int32(y.rounded()))
        }
    }
}
