import InputDevices
import CLibinput
import Glibc
import TextWire
import TouchGestures

extension LibinputContext {
    /// Raw units per millimetre assumed for a touchscreen that reports no resolution and
    /// that nothing else sizes: cheap and embedded panels measured so far report about
    /// 5 (a 9-inch 1024x600 panel is 5.2 across, a 7-inch 800x480 one 5.2). Without a
    /// density, libinput's "millimetres" on such a screen are raw units, and every
    /// slop and distance would shrink by that factor.
    public static let assumedUnitsPerMillimetre = 5.0

    // libinput's own assumption for a touchpad with no resolution and no size quirk
    // (tp_init_default_resolution): 69x50 mm. Its gesture deltas are scaled by it, so a
    // touchpad's assumed size is libinput's, not one from the density above.
    static let libinputAssumedTouchpadSize = Size(width: 69, height: 50)

    /// A device's size, where it came from, and how to turn libinput's touch
    /// coordinates into millimetres.
    struct Measured {
        var size: Size?
        var source: InputDevice.SizeSource?
        /// The surface's extent in libinput's touch coordinates: millimetres when libinput
        /// knows a resolution, raw units when it does not (its fake resolution is 1 unit
        /// per "mm"); nil when unknown. A location is `libinput's * size / extent`.
        var libinputExtent: Size?
    }

    /// Finds the size of `device` from, in order: the user's stated sizes, libinput (the
    /// axes' resolution or a quirk), udev properties, and an assumption.
    func measure(_ device: OpaquePointer, name: String, kind: InputDevice.Kind, axes: Axes?) -> Measured {
        var width = 0.0
        var height = 0.0
        let libinputSized = libinput_device_get_size(device, &width, &height) == 0 && width > 0 && height > 0
        let extent = libinputSized ? Size(width: width, height: height)
            : axes.map { Size(width: $0.xRange, height: $0.yRange) }
        if let stated = StatedDeviceSize.first(in: options.statedSizes, matching: name) {
            return Measured(size: stated.size, source: .user, libinputExtent: extent)
        }
        if libinputSized {
            return Measured(size: Size(width: width, height: height), source: .resolution, libinputExtent: extent)
        }
        if let size = Self.udevSize(device, axes: axes) {
            return Measured(size: size, source: .udev, libinputExtent: extent)
        }
        if kind == .touchpad {
            return Measured(size: Self.libinputAssumedTouchpadSize, source: .assumed, libinputExtent: extent)
        }
        if let axes {
            let size = Size(width: axes.xRange / Self.assumedUnitsPerMillimetre,
                            height: axes.yRange / Self.assumedUnitsPerMillimetre)
            return Measured(size: size, source: .assumed, libinputExtent: extent)
        }
        return Measured(size: nil, source: nil, libinputExtent: nil)
    }

    /// The position axes' ranges in raw units, as libinput uses them (the MT axes when
    /// the device has them).
    struct Axes {
        var xRange: Double
        var yRange: Double
    }

    /// Reads the axes through `fd`, the node libinput opened through us.
    static func axes(fd: Int32) -> Axes? {
        func range(_ code: Int32) -> Double? {
            var info = input_absinfo()
            guard touchgest_get_absinfo(fd, UInt32(code), &info) == 0 else { return nil }
            return axisExtent(minimum: info.minimum, maximum: info.maximum)
        }
        if let x = range(ABS_MT_POSITION_X), let y = range(ABS_MT_POSITION_Y) { return Axes(xRange: x, yRange: y) }
        if let x = range(ABS_X), let y = range(ABS_Y) { return Axes(xRange: x, yRange: y) }
        return nil
    }

    /// A size from udev: `ID_INPUT_WIDTH_MM`/`ID_INPUT_HEIGHT_MM` (udev's input_id sets
    /// them only from a resolution, so here they come from a user's udev rule), or an
    /// `EVDEV_ABS_00=min:max:res` hwdb entry udev did not apply to the kernel.
    static func udevSize(_ device: OpaquePointer, axes: Axes?) -> Size? {
        guard let udevDevice = libinput_device_get_udev_device(device) else { return nil }
        defer { udev_device_unref(udevDevice) }
        func property(_ key: String) -> String? {
            udev_device_get_property_value(udevDevice, key).map { String(cString: $0) }
        }
        if let width = property("ID_INPUT_WIDTH_MM").flatMap(Double.init),
           let height = property("ID_INPUT_HEIGHT_MM").flatMap(Double.init), width > 0, height > 0 {
            return Size(width: width, height: height)
        }
        // EVDEV_ABS_<code in hex>=min:max:res:fuzz:flat, any field may be empty.
        func extent(_ code: String, range: Double?) -> Double? {
            guard let fields = property("EVDEV_ABS_" + code)?.split(separator: ":", omittingEmptySubsequences: false),
                  fields.count >= 3, let resolution = Double(fields[2]), resolution > 0 else { return nil }
            if let low = Double(fields[0]), let high = Double(fields[1]), high > low { return (high - low) / resolution }
            return range.map { $0 / resolution }
        }
        for (x, y) in [("35", "36"), ("00", "01")] {
            if let width = extent(x, range: axes?.xRange), let height = extent(y, range: axes?.yRange) {
                return Size(width: width, height: height)
            }
        }
        return nil
    }
}
