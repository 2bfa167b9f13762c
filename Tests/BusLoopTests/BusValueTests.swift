import CDBus
import Testing
@testable import BusLoop

/// How much of a message touchgest reads (``BusValue/Bounds``), on messages made with
/// libdbus itself: no bus needed.
struct BusValueTests {
    static let bounds = BusValue.Bounds(values: 10, depth: 3, stringBytes: 8)

    /// A PropertiesChanged signal of `entries` boolean entries.
    func properties(_ entries: Int, key: (Int) -> String = { "K\($0)" }) -> OpaquePointer {
        let message = dbus_message_new_signal("/p", "org.freedesktop.DBus.Properties", "PropertiesChanged")!
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        var dictionary = DBusMessageIter()
        dbus_message_iter_open_container(&iterator, Int32(CDBUS_TYPE_ARRAY), "{sv}", &dictionary)
        for index in 0..<entries {
            var entry = DBusMessageIter()
            dbus_message_iter_open_container(&dictionary, Int32(CDBUS_TYPE_DICT_ENTRY), nil, &entry)
            key(index).withCString { pointer in
                var value: UnsafePointer<CChar>? = pointer
                _ = dbus_message_iter_append_basic(&entry, Int32(CDBUS_TYPE_STRING), &value)
            }
            var variant = DBusMessageIter()
            dbus_message_iter_open_container(&entry, Int32(CDBUS_TYPE_VARIANT), "b", &variant)
            var flag: UInt32 = 1
            _ = dbus_message_iter_append_basic(&variant, Int32(CDBUS_TYPE_BOOLEAN), &flag)
            dbus_message_iter_close_container(&entry, &variant)
            dbus_message_iter_close_container(&dictionary, &entry)
        }
        dbus_message_iter_close_container(&iterator, &dictionary)
        return message
    }

    @Test func aMessageWithinTheBoundsIsReadWhole() throws {
        let message = properties(2)
        defer { dbus_message_unref(message) }
        // 1 array + 2 entries x (entry, key, variant, boolean) = 9 values.
        let values = try #require(BusValue.arguments(of: message, within: Self.bounds))
        #expect(values.first?.properties == ["K0": .boolean(true), "K1": .boolean(true)])
    }

    @Test func oneValuePastTheCountIsNotRead() {
        let message = properties(3)
        defer { dbus_message_unref(message) }
        // 13 values against 10.
        #expect(BusValue.arguments(of: message, within: Self.bounds) == nil)
    }

    @Test func containersDeeperThanTheBoundAreNotRead() {
        let message = properties(1)
        defer { dbus_message_unref(message) }
        // array > entry > variant > boolean: the boolean is three levels down.
        #expect(BusValue.arguments(of: message, within: BusValue.Bounds(values: 100, depth: 3, stringBytes: 8)) != nil)
        #expect(BusValue.arguments(of: message, within: BusValue.Bounds(values: 100, depth: 2, stringBytes: 8)) == nil)
    }

    @Test func aStringPastItsBytesIsNotRead() {
        let fits = properties(1) { _ in "12345678" }
        let over = properties(1) { _ in "123456789" }
        defer {
            dbus_message_unref(fits)
            dbus_message_unref(over)
        }
        #expect(BusValue.arguments(of: fits, within: Self.bounds) != nil)
        #expect(BusValue.arguments(of: over, within: Self.bounds) == nil)
    }

    @Test func numbersAndTextAreShownInOneLine() {
        #expect(BusValue.integer(3).shown == "3")
        #expect(BusValue.double(2).shown == "2")
        #expect(BusValue.double(2.5).shown == "2.5")
        #expect(BusValue.variant(.boolean(false)).shown == "false")
        #expect(BusValue.array([.string("a")]).shown == "")
        #expect(BusValue.double(1).number == 1 && BusValue.integer(4).number == 4 && BusValue.string("4").number == nil)
    }
}
