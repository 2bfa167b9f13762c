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
