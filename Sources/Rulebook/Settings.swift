import TextWire
import TouchGestures

/// The `[settings]` table: defaults for every rule.
public struct Settings: Sendable {
    public var device: DeviceKind = .any
    /// Commands run longer than this are stopped; nil: no limit.
    public var timeout: Duration? = .seconds(30)
    public var overlap: OverlapPolicy = .queue
    /// Engine tunables by gesture.
    public var tunables: [GestureKind: Tunables] = [:]
    /// Device sizes the user states (`device-size = "GLOB=WIDTHxHEIGHT"`), for screens
    /// that report no resolution or a wrong one.
    public var deviceSizes: [StatedDeviceSize] = []

    public init() {}
}
