import CUinput
import Glibc
@testable import InputActions
@testable import InputChannels
import Testing
import TestSupport

/// The uinput channel, against the kernel's ABI only: this kernel has no uinput, so no
/// test here makes a device. What is checked is what touchgest writes and how it fails:
/// the events' layout (struct input_event, linux/input.h), their codes
/// (linux/input-event-codes.h: EV_SYN 0, SYN_REPORT 0, EV_KEY 1, KEY_LEFTCTRL 29,
/// KEY_LEFTSHIFT 42, KEY_V 47, KEY_H 35, KEY_I 23, KEY_1 2), and the reports of a node
/// that is missing or is not uinput.
@Suite struct UinputChannelTests {
    /// (type, code, value) of each struct input_event in `bytes`: on 64-bit Linux a
    /// struct timeval (16 bytes), then __u16 type, __u16 code, __s32 value.
    static func decode(_ bytes: [UInt8]) -> [(UInt16, UInt16, Int32)] {
        stride(from: 0, to: bytes.count, by: 24).map { start in
            bytes[start..<start + 24].withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: 16, as: UInt16.self), raw.loadUnaligned(fromByteOffset: 18, as: UInt16.self),
                 raw.loadUnaligned(fromByteOffset: 20, as: Int32.self))
            }
        }
    }

    @Test func anEventIsTheKernels24ByteStructOn64BitLinux() {
        #expect(cuinput_event_size() == 24)
    }

    @Test func eachKeyIsWrittenWithASynReportInOneWrite() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let codes: [UInt16] = [29, 47, 47, 29]
        let values: [Int32] = [1, 1, 0, 0]
        #expect(cuinput_write_keys(fds[1], codes, values, 4) == 8 * 24)
        var buffer = [UInt8](repeating: 0, count: 8 * 24 + 1)
        let count = read(fds[0], &buffer, buffer.count)
        #expect(count == 8 * 24)
        let events = Self.decode(Array(buffer[0..<max(count, 0)]))
        #expect(events.map { "\($0.0) \($0.1) \($0.2)" } == [
            "1 29 1", "0 0 0", "1 47 1", "0 0 0", "1 47 0", "0 0 0", "1 29 0", "0 0 0",
        ])
    }

    // On the system's default xkb map (us): the evdev codes of the keys, down in order
    // and up in reverse; text with Shift around a shifted character.
    @Test func aChordAndTextAreTheirKeysEvdevCodes() throws {
        let map = try #require(KeyboardMap())
        let chord = try UinputChannel.keyEvents(for: .keys(KeyChord.sequence("ctrl+shift+v")), on: map).get()
        #expect(chord.map { "\($0.code)\($0.pressed ? "+" : "-")" } == ["29+", "42+", "47+", "47-", "42-", "29-"])
        let text = try UinputChannel.keyEvents(for: .text("Hi!"), on: map).get()
        #expect(text.map { "\($0.code)\($0.pressed ? "+" : "-")" } == [
            "42+", "35+", "35-", "42-", "23+", "23-", "42+", "2+", "2-", "42-",
        ])
    }

    @Test func aButtonIsRefusedSinceTheDeviceIsAKeyboardOnly() throws {
        let map = try #require(KeyboardMap())
        guard case let .failure(error) = UinputChannel.keyEvents(for: .button(.middle), on: map) else {
            Issue.record("a button was turned into key events")
            return
        }
        #expect(error.description == "the uinput channel is a keyboard only (a pointer device could switch the touchpad off): button does nothing here")
    }

    @Test func aMissingNodeAndANodeThatIsNotUinputAreSaidWithTheirPath() {
        let folder = temporaryFolder()
        writeText("\(folder)/not-uinput", "")
        for (path, expected) in [
            ("\(folder)/missing", "cannot open \(folder)/missing: No such file or directory"),
            ("\(folder)/not-uinput", "cannot make a keyboard on \(folder)/not-uinput: Inappropriate ioctl for device"),
        ] {
            let channel = UinputChannel(path: path)
            var reports: [InputChannelReport] = []
            channel.onReport = { reports.append($0) }
            channel.start()
            #expect(reports == [.lost(expected)])
            // Nothing is pressed, and why is said once.
            channel.press(.keys([KeyChord(modifiers: [], key: Key(named: "a"))]))
            channel.press(.keys([KeyChord(modifiers: [], key: Key(named: "a"))]))
            #expect(reports == [.lost(expected), .cannotPress("uinput keyboard at \(path) is not open")])
        }
    }
}
