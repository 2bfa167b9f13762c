import TouchGestures

/// One finger of a generated gesture: when it lands and lifts, and where it is.
///
/// `path` is the intended movement; the frames add sensor jitter on top of it, drawn
/// fresh for every frame, as a touch sensor's noise is.
public struct Finger {
    /// Seconds from the sample's start.
    public var landing: Double
    /// Seconds from the sample's start; the finger is gone from this frame on.
    public var lift: Double
    /// Where the finger means to be, in millimetres, at a time in seconds from the start.
    public var path: (Double) -> Point
    /// Standard deviation of the sensor's per-frame noise on each axis, in millimetres.
    public var jitter: Double

    /// Makes a finger.
    public init(landing: Double, lift: Double, jitter: Double, path: @escaping (Double) -> Point) {
        self.landing = landing
        self.lift = lift
        self.jitter = jitter
        self.path = path
    }

    /// Whether the finger is on the surface in the frame at `time`.
    public func isDown(at time: Double) -> Bool { time >= landing && time < lift }
}

/// Frame times of a sensor that reports every `interval` seconds, give or take `wobble`,
/// covering every finger's life up to the first frame in which every finger has lifted.
public func frameTimes(for fingers: [Finger], interval: Double, wobble: Double, random: inout SeededRandom) -> [Double] {
    let start = fingers.map(\.landing).min() ?? 0
    let end = fingers.map(\.lift).max() ?? 0
    var times: [Double] = []
    var time = start
    repeat {
        times.append(time)
        time += interval + random.uniform(-wobble...wobble)
    } while times.last! < end
    return times
}

/// A finger count's usual layout on a touchpad or screen: fingertips in a slightly
/// bowed row about 18 mm apart, the middle finger highest (offsets in millimetres from
/// the hand's centre).
public func fingerLayout(_ count: Int, random: inout SeededRandom) -> [Point] {
    let spacing = random.uniform(15...21)
    return (0..<count).map { index in
        let x = (Double(index) - Double(count - 1) / 2) * spacing + random.uniform(-1.5...1.5)
        let fromMiddle = abs(Double(index) - Double(count - 1) / 2)
        let y = fromMiddle * random.uniform(1.5...3) + random.uniform(-1...1)
        return Point(x: x, y: y)
    }
}
