import ContactInput
import Glibc
import TestSupport
import Testing
import TouchGestures

/// What the contact reader says about nodes it cannot read: a user sees these lines in
/// `touchgest run`'s log when a rule reads fingers, so each must name the node and why.
@Suite struct ContactReaderTests {
    @Test func aNodeThatIsNotAnInputDeviceIsRefusedByName() {
        let path = temporaryFolder() + "/not-evdev"
        writeText(path, "not an input device")
        let reader = ContactReader()
        #expect(throws: ContactError.notEvdev(path: path, errno: ENOTTY)) {
            try reader.open(node: path, device: DeviceID(7), size: nil)
        }
        #expect(!reader.isReading(DeviceID(7)))
        #expect(reader.pollDescriptors.isEmpty)
    }

    @Test func aMissingNodeIsRefusedWithTheSystemsReason() {
        let reader = ContactReader()
        let path = "/nonexistent/touchgest/event99"
        let error = #expect(throws: ContactError.self) {
            try reader.open(node: path, device: DeviceID(1), size: nil)
        }
        #expect(error?.description == "cannot read the fingers on \(path): No such file or directory")
    }
}

/// Semi-MT pads report only the corners of the box around the fingers; the reader
/// spreads the counted fingers along it. The corners are the device's to choose.
@Suite struct SemiMultitouchBoxTests {
    @Test func cornersAtInt32sExtremesSpreadWithoutOverflow() {
        // Int32.max - Int32.min does not fit an Int32: this once trapped.
        let widest = ContactGeometry.spread(5, from: (x: Int32.min, y: Int32.max), to: (x: Int32.max, y: Int32.min))
        #expect(widest.first.map { [$0.x, $0.y] } == [Int32.min, Int32.max])
        #expect(widest.last.map { [$0.x, $0.y] } == [Int32.max, Int32.min])
        // A box symmetric about 0 has its middle finger exactly there.
        let middle = ContactGeometry.spread(3, from: (x: -Int32.max, y: Int32.max), to: (x: Int32.max, y: -Int32.max))[1]
        #expect([middle.x, middle.y] == [0, 0])
    }

    @Test func twoFingersSitOnTheTwoCorners() {
        let fingers = ContactGeometry.spread(2, from: (x: 100, y: 200), to: (x: 900, y: 600))
        #expect(fingers.map { [$0.x, $0.y] } == [[100, 200], [900, 600]])
    }
}
