// Fuzzes what a touch device declares about itself: its axes' ranges and resolutions, its
// slot count and touch-size axis, and the semi-MT box corners it reports, through the
// contact reader's geometry and the sizing both readers share (axisExtent). A broken or
// hostile USB HID device chooses all of these, Int32's extremes included: nothing may
// trap, and every position must come out finite. See scripts/fuzz and docs/fuzzing.md.
//
// An input is read as little-endian Int32s, missing bytes as 0: x minimum, x maximum,
// x resolution, y minimum, y maximum, y resolution, touch-major resolution, flags (bit 0:
// has a touch-major axis, bit 1: has pressure, bit 2: a size is known), the size's width
// and height in hundredths of a millimetre, then pairs of raw positions (the last two
// pairs are also a semi-MT box's corners) and a finger count.
import ContactInput
import FuzzSupport
import InputDevices
import TouchGestures

func fuzzOne(_ bytes: [UInt8]) {
    var values: [Int32] = []
    var index = 0
    while index < bytes.count {
        var value: UInt32 = 0
        for shift in 0..<4 where index + shift < bytes.count { value |= UInt32(bytes[index + shift]) << (8 * shift) }
        values.append(Int32(bitPattern: value))
        index += 4
    }
    func value(_ at: Int) -> Int32 { at < values.count ? values[at] : 0 }
    let x = ContactGeometry.Axis(minimum: value(0), maximum: value(1), resolution: value(2))
    let y = ContactGeometry.Axis(minimum: value(3), maximum: value(4), resolution: value(5))
    let flags = value(7)
    let size = flags & 4 != 0 ? Size(width: Double(value(8)) / 100, height: Double(value(9)) / 100) : nil
    // axisExtent is what libinput's sizing uses too: an extent is positive and finite, or none.
    for axis in [x, y] {
        if let extent = axisExtent(minimum: axis.minimum, maximum: axis.maximum) {
            guard extent > 0, extent.isFinite, extent == Double(Int64(axis.maximum) - Int64(axis.minimum)) else {
                fatalError("extent \(extent) of \(axis.minimum)...\(axis.maximum)")
            }
        } else if axis.maximum > axis.minimum {
            fatalError("no extent for \(axis.minimum)...\(axis.maximum)")
        }
    }
    guard let geometry = ContactGeometry(x: x, y: y, size: size, majorResolution: value(6), hasMajor: flags & 1 != 0,
                                         hasPressure: flags & 2 != 0) else { return }
    guard geometry.size.width.isFinite, geometry.size.height.isFinite else { fatalError("size \(geometry.size)") }
    var positions: [(x: Int32, y: Int32)] = [(x.minimum, y.minimum), (x.maximum, y.maximum), (Int32.min, Int32.max)]
    var at = 10
    while at + 1 < values.count - 1 {
        positions.append((values[at], values[at + 1]))
        at += 2
    }
    for position in positions {
        let (mm, normalized) = geometry.location(position.x, position.y)
        guard mm.x.isFinite, mm.y.isFinite, normalized.x.isFinite, normalized.y.isFinite else {
            fatalError("position \(position) gave \(mm) mm, \(normalized)")
        }
    }
    // A semi-MT box: the fingers spread between its corners, whatever they are.
    let first = positions[positions.count - 2]
    let last = positions[positions.count - 1]
    let count = Int(UInt32(bitPattern: value(values.count - 1)) % 6)
    let fingers = ContactGeometry.spread(count, from: first, to: last)
    guard fingers.count == count else { fatalError("\(fingers.count) fingers for \(count)") }
    for finger in fingers {
        guard (min(first.x, last.x)...max(first.x, last.x)).contains(finger.x),
              (min(first.y, last.y)...max(first.y, last.y)).contains(finger.y) else {
            fatalError("finger \(finger) outside the box \(first) \(last)")
        }
    }
}

@main struct FuzzDeviceMain {
    static func main() {
        FuzzTarget.run("FuzzDevice", folder: FuzzTarget.folder(of: #filePath), fuzzOne)
    }
}
