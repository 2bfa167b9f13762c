import InputDevices
import Recordings
import TestSupport
import Testing
import TouchGestures

/// Reads `text` as a recording named rec.tgrec; the events, or the error's text.
func read(_ text: String) -> (events: [RecordingReader.Event], error: String?) {
    read(Array(text.utf8))
}

func read(_ bytes: [UInt8]) -> (events: [RecordingReader.Event], error: String?) {
    let reader = RecordingReader(bytes: bytes, path: "rec.tgrec")
    var events: [RecordingReader.Event] = []
    do {
        while let event = try reader.next() { events.append(event) }
        return (events, nil)
    } catch {
        return (events, error.description)
    }
}

let header = "# touchgest recording 1\n"
let touchpad = header + "device 1 touchpad 100.000 70.000 pad\n"
let touchscreen = header + "device 2 touchscreen 300.000 200.000 screen\n"

/// Each input here once crashed or hung `touchgest replay`; now each is an error that
/// names the line and the value, or is read as it should be.
@Suite struct RecordingReaderCrashTests {
    @Test func twoDevicesWithTheSameIdAreAnError() {
        let result = read(header + "device 1 touchpad 100 70 pad\ndevice 1 touchscreen 300 200 screen\n")
        #expect(result.error == "rec.tgrec:3: error: duplicate device id 1; line 2 added device 1 already")
    }

    @Test func aLineOfSpacesIsSkipped() {
        let result = read(touchpad + "   \n\t \n\n0 touchpad 1 tap 2\n")
        #expect(result.error == nil)
        #expect(result.events.count == 2)
    }

    @Test(arguments: ["9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616"])
    func aTimeNear2To63Or2To64IsAnError(time: String) {
        let result = read(touchpad + "\(time) touchpad 1 tap 2\n")
        #expect(result.error == "rec.tgrec:3: error: time '\(time)' is out of range; expected microseconds from 0 to 1000000000000")
    }

    @Test(arguments: ["inf", "-inf", "nan", "1e300", "1e9", "0", "-1", "100.001"])
    func aPinchScaleThatIsNotFiniteOrAbsurdIsAnError(scale: String) {
        let result = read(touchpad + "0 touchpad 1 pinch-begin 2\n8000 touchpad 1 pinch-update 2 0 0 \(scale) 0\n")
        #expect(result.error == "rec.tgrec:4: error: pinch scale '\(scale)' is out of range; expected a number greater than 0 and at most 100")
    }

    @Test func theLargestPinchScaleIsRead() {
        let result = read(touchpad + "0 touchpad 1 pinch-begin 2\n8000 touchpad 1 pinch-update 2 0 0 100 0\n")
        #expect(result.error == nil)
    }

    @Test(arguments: ["inf", "1e300", "360.5", "nan"])
    func aRotationThatIsNotFiniteOrAbsurdIsAnError(angle: String) {
        let result = read(touchpad + "0 touchpad 1 pinch-begin 2\n8000 touchpad 1 pinch-update 2 0 0 1 \(angle)\n")
        #expect(result.error == "rec.tgrec:4: error: pinch angle delta '\(angle)' is out of range; expected a number from -360 to 360")
    }

    @Test(arguments: ["inf", "1e300", "-10001"])
    func aDeltaThatIsNotFiniteOrAbsurdIsAnError(delta: String) {
        let result = read(touchpad + "0 touchpad 1 swipe-begin 3\n8000 touchpad 1 swipe-update 3 \(delta) 0\n")
        #expect(result.error == "rec.tgrec:4: error: delta '\(delta)' is out of range; expected a number from -10000 to 10000")
    }

    @Test func aCommentLongerThan64KiBIsOneLineNotTwo() {
        // fgets with a 65,536-byte buffer read the tail of such a comment as an event.
        let comment = "# " + String(repeating: "x", count: 70_000) + " 0 touchpad 1 tap 9\n"
        let result = read(touchpad + comment + "0 touchpad 1 tap 2\n")
        #expect(result.error == nil)
        #expect(result.events.count == 2)
    }

    @Test func anEventLineOverTheLimitIsAnErrorNamingTheLimit() {
        let line = "0 touches 2 " + String(repeating: "1:down:1:1 ", count: 400) + "\n"
        let result = read(touchscreen + line + "1000 removed 2\n")
        #expect(result.error == "rec.tgrec:3: error: the line is longer than 4096 bytes, the longest a recording line may be")
    }

    @Test func bytesThatAreNotUTF8AreAnErrorNotATrap() {
        var bytes = Array(touchpad.utf8)
        bytes += [0x30, 0x20, 0xFF, 0xFE, 0x80, 0x0A]
        let result = read(bytes)
        #expect(result.error == "rec.tgrec:3: error: expected TIME KIND DEVICE ... or device ID KIND WIDTH HEIGHT NAME, found '0 \u{FFFD}\u{FFFD}\u{FFFD}'")
    }
}

@Suite struct RecordingReaderValidationTests {
    @Test func anUnknownDeviceIsAnErrorListingTheDevicesPresent() {
        let result = read(touchpad + "0 touchpad 7 tap 2\n")
        #expect(result.error == "rec.tgrec:3: error: unknown device 7; devices present: 1")
    }

    @Test func aRemovedDeviceIsUnknownAfterwards() {
        let result = read(touchpad + "0 removed 1\n10 touchpad 1 tap 2\n")
        #expect(result.error == "rec.tgrec:4: error: unknown device 1; no device is present")
    }

    @Test func aTimeMoreThanASecondBackIsAnError() {
        let result = read(touchpad + "5000000 touchpad 1 tap 2\n3999999 touchpad 1 tap 2\n")
        #expect(result.error == "rec.tgrec:4: error: time 3999999 is 1000001 us before the latest event's 5000000; times may go back at most 1000000 us")
    }

    @Test func aTapDatedAtItsFirstTouchBeforeTheHoldItEndsIsRead() {
        // What libinput does (examples/tour.tgrec line 240): the tap is 60 ms earlier.
        let result = read(touchpad + "5672128 touchpad 1 hold-begin 2\n5692039 touchpad 1 hold-end 2 0\n5632046 touchpad 1 tap 2\n")
        #expect(result.error == nil)
        #expect(result.events.last?.time == Timestamp(microseconds: 1_000_000 + 5_632_046))
    }

    @Test func anUnknownEventNamesItAndTheKnownOnes() {
        let result = read(touchpad + "0 wiggle 1\n")
        #expect(result.error == "rec.tgrec:3: error: unknown event 'wiggle'; expected one of touchpad, touches, held, removed, device")
    }

    @Test func anUnknownGestureNamesItAndTheKnownOnes() {
        let result = read(touchpad + "0 touchpad 1 swipe-sideways 3\n")
        #expect(result.error == "rec.tgrec:3: error: unknown touchpad gesture 'swipe-sideways'; expected one of swipe-begin, swipe-update, swipe-end, pinch-begin, pinch-update, pinch-end, hold-begin, hold-end, tap")
    }

    @Test(arguments: ["0", "6", "-1", "99999999999999999999", "three"])
    func aBadFingerCountIsAnError(fingers: String) {
        let result = read(touchpad + "0 touchpad 1 hold-begin \(fingers)\n")
        #expect(result.error == "rec.tgrec:3: error: finger count '\(fingers)' is out of range; expected 1 to 5")
    }

    @Test func aGestureWithTheWrongValuesSaysWhatItTakes() {
        let result = read(touchpad + "0 touchpad 1 swipe-update 3 1.5\n")
        #expect(result.error == "rec.tgrec:3: error: swipe-update takes FINGERS DX DY, found '3 1.5'")
    }

    @Test func aTouchCoordinateOutOfRangeIsAnError() {
        let result = read(touchscreen + "0 touches 2 1:down:inf:5\n")
        #expect(result.error == "rec.tgrec:3: error: touch x 'inf' is out of range; expected a number from -10000 to 10000")
    }

    @Test func aTouchThatIsNotDownCannotMove() {
        let result = read(touchscreen + "0 touches 2 4:move:1:1\n")
        #expect(result.error == "rec.tgrec:3: error: touch 4 move but it is not down")
    }

    @Test func aTouchCannotGoDownTwice() {
        let result = read(touchscreen + "0 touches 2 4:down:1:1\n10 touches 2 4:down:1:1\n")
        #expect(result.error == "rec.tgrec:4: error: touch 4 goes down but is down already")
    }

    @Test func aDeviceSizeMustBeFinite() {
        let result = read(header + "device 1 touchscreen nan 200 screen\n")
        #expect(result.error == "rec.tgrec:2: error: device width 'nan' is out of range; expected a number from 0 to 10000")
    }

    @Test func aFileWithoutTheHeaderSaysWhatItExpected() {
        let result = read("device 1 touchpad 100 70 pad\n")
        #expect(result.error == "rec.tgrec:1: error: expected '# touchgest recording 1' as the first line, found 'device 1 touchpad 100 70 pad'")
    }

    @Test func anEmptyFileIsAnError() {
        #expect(read("").error == "rec.tgrec:1: error: the file is empty; expected '# touchgest recording 1'")
    }
}

@Suite struct RecordingReaderFrameTests {
    /// Each touch's id and phase, in order.
    func phases(_ touches: [Touch]) -> [String] {
        touches.map { "\($0.id):\($0.phase)" }
    }

    func frames(_ text: String) -> [TouchEvent] {
        let result = read(text)
        #expect(result.error == nil)
        return result.events.compactMap { if case let .input(.touches(frame)) = $0.event { frame } else { nil } }
    }

    @Test func onlyTouchesThatDidNotChangeAreStationary() {
        let frames = frames(touchscreen + """
            0 touches 2 1:down:10:10
            8000 touches 2 2:down:20:20
            16000 touches 2 2:move:25:20
            24000 touches 2 1:up:10:10

            """)
        #expect(frames.map { phases($0.changedTouches) } == [["1:began"], ["2:began"], ["2:moved"], ["1:ended"]])
        #expect(frames.map { phases($0.allTouches) } == [
            ["1:began"], ["1:stationary", "2:began"], ["1:stationary", "2:moved"], ["2:stationary", "1:ended"],
        ])
    }

    @Test func touchesOnTwoScreensWithTheSameIdAreKeptApart() {
        let frames = frames(touchscreen + """
            device 3 touchscreen 300 200 other screen
            0 touches 2 0:down:10:10
            8000 touches 3 0:down:200:150
            16000 touches 2 0:move:12:10

            """)
        #expect(frames[2].changedTouches.first?.previousLocation == Point(x: 10, y: 10))
        #expect(frames[2].allTouches.map(\.device) == [DeviceID(2)])
    }

    @Test func aDeviceNameKeepsItsSpacesAndBytes() {
        let result = read(header + "device 1 touchpad 100 70 DLL075B:01  06CB:76AF \u{1B}[31mTouchpad\n")
        guard case let .deviceAdded(device)? = result.events.first?.event else {
            Issue.record("no device: \(result)")
            return
        }
        #expect(device.name == "DLL075B:01  06CB:76AF \u{1B}[31mTouchpad")
    }
}

/// A touchpad's `touches` are its fingers as the contact reader read them (`touchgest
/// record --fingers`): touchpad touches, which only rules on the fingers take.
@Suite struct TouchpadFingerRecordingTests {
    @Test func touchesOfATouchpadAreItsFingersAndOfATouchscreenItsContacts() {
        let result = read(header + "device 1 touchpad 100 70 pad\ndevice 2 touchscreen 300 200 screen\n"
            + "0 touches 1 1:down:50.000:35.000\n10 touches 2 1:down:100.000:50.000\n")
        #expect(result.error == nil)
        let types = result.events.compactMap { event -> TouchType? in
            if case let .input(.touches(frame)) = event.1 { frame.changedTouches.first?.type } else { nil }
        }
        #expect(types == [.indirect, .direct])
    }
}

/// `held DEVICE MODIFIERS BUTTONS`: the modifier keys and buttons held for that device's
/// events from then on, so that a replay of a gesture made with Super held decides as the
/// live run did.
@Suite struct HeldRecordingTests {
    func held(_ events: [RecordingReader.Event]) -> [String] {
        events.compactMap { event -> String? in
            guard case let .input(input) = event.event else { return nil }
            return "\(input.modifierFlags) \(input.buttonMask)"
        }
    }

    @Test func aHeldLineHoldsForItsDeviceUntilTheNextOne() {
        let result = read(header + "device 1 touchpad 100 70 pad\ndevice 2 touchscreen 300 200 screen\n"
            + "0 touchpad 1 swipe-begin 3\n5 held 1 super+ctrl 1\n10 touchpad 1 swipe-update 3 1 0\n"
            + "12 touches 2 1:down:100.000:50.000\n15 held 1 none none\n20 touchpad 1 swipe-end 3 0\n")
        #expect(result.error == nil)
        #expect(held(result.events) == ["none none", "ctrl+super 1", "none none", "none none"])
    }

    @Test func aRemovedDeviceForgetsWhatItHeld() {
        let result = read(touchpad + "0 held 1 shift none\n5 removed 1\ndevice 1 touchpad 100 70 pad\n10 touchpad 1 hold-begin 2\n")
        #expect(result.error == nil)
        #expect(held(result.events) == ["none none"])
    }

    @Test(arguments: [
        ("0 held 1 hyper none", "rec.tgrec:3: error: unknown modifiers 'hyper'; expected names from capslock, shift, ctrl, alt, super joined by '+', or none"),
        ("0 held 1 super+super none", "rec.tgrec:3: error: unknown modifiers 'super+super'; expected names from capslock, shift, ctrl, alt, super joined by '+', or none"),
        ("0 held 1 none 33", "rec.tgrec:3: error: unknown buttons '33'; expected button numbers from 1 to 32 joined by '+', or none"),
        ("0 held 1 none 01", "rec.tgrec:3: error: unknown buttons '01'; expected button numbers from 1 to 32 joined by '+', or none"),
        ("0 held 1 super", "rec.tgrec:3: error: held takes a device id, the modifiers and the buttons, found '0 held 1 super'"),
        ("0 held 7 super none", "rec.tgrec:3: error: unknown device 7; devices present: 1"),
    ])
    func aBadHeldLineSaysWhichValue(line: String, error: String) {
        #expect(read(touchpad + line + "\n").error == error)
    }

    /// What the writer writes the reader reads back: a `held` line only where a device's
    /// state changes.
    @Test func theWriterWritesAHeldLineWhereTheStateChangesAndTheReaderReadsItBack() throws {
        let path = "\(temporaryFolder())/held.tgrec"
        let writer = try RecordingWriter(path: path, replacing: false)
        let pad = InputDevice(id: DeviceID(1), name: "pad", node: "/dev/input/event9", kind: .touchpad, size: Size(width: 100, height: 70), slots: 5, tapFingers: 3)
        writer.write(.deviceAdded(pad))
        var events: [TouchpadEvent] = []
        for (index, gesture) in [TouchpadGesture.swipeBegin(fingers: 3), .swipeUpdate(fingers: 3, delta: Point(x: 1, y: 0)),
                                 .swipeEnd(fingers: 3, cancelled: false)].enumerated() {
            var event = TouchpadEvent(gesture, timestamp: Timestamp(microseconds: UInt64(1_000 + index * 10)), device: DeviceID(1))
            event.modifierFlags = index == 0 ? [] : .command
            event.buttonMask = index == 2 ? .primary : []
            events.append(event)
            writer.write(.input(.touchpad(event)))
        }
        let text = readText(path)
        #expect(text.split(separator: "\n").filter { $0.contains(" held ") } == ["10 held 1 super none", "20 held 1 super 1"])
        let back = read(text)
        #expect(back.error == nil)
        #expect(held(back.events) == ["none none", "super none", "super 1"])
    }
}
