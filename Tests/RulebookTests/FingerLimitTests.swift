import Testing
import TouchGestures
@testable import Rulebook

@Suite struct FingerLimitTests {
    /// One rule of `gesture` with `keys` and `fingers`, as `check` reads it.
    static func rule(_ gesture: GestureKind, _ keys: String, fingers: Int) -> String {
        let shape = gesture == .stroke ? "template = [[0, 0], [0.5, 1], [1, 0]]\n" : ""
        return "[rule.r]\ngesture = \"\(gesture.rawValue)\"\n\(keys)\n\(shape)fingers = \(fingers)\ncommand = \"x\"\n"
    }

    /// Each limit `check` enforces, by gesture and input: the keys that choose the input,
    /// the first count past the limit with its error as users see it today, and the
    /// nearest count within it, which has no error about fingers.
    static let limits: [(gesture: GestureKind, input: FingerLimit.Input, keys: String, outside: Int, error: String, inside: Int)] = [
        (.tap, .libinput, "device = \"touchpad\"\nsource = \"libinput\"", 4,
         "rules.toml:5:11: error: touchpads tap with 1, 2 or 3 fingers (libinput has no 4-finger tap); remove source = \"libinput\" to read the fingers instead", 3),
        (.swipe, .libinput, "device = \"touchpad\"", 2,
         "rules.toml:4:11: error: touchpad swipes need 3 or more fingers: libinput scrolls with 1 and 2", 3),
        (.pan, .libinput, "device = \"touchpad\"", 2,
         "rules.toml:4:11: error: touchpad pans need 3 or more fingers: libinput scrolls with 1 and 2", 3),
        (.pinch, .libinput, "device = \"touchpad\"", 1,
         "rules.toml:4:11: error: touchpad pinchs need 2 or more fingers", 2),
        (.rotation, .libinput, "device = \"touchpad\"", 1,
         "rules.toml:4:11: error: touchpad rotations need 2 or more fingers", 2),
        (.stroke, .touchscreen, "device = \"touchscreen\"", 4,
         "rules.toml:5:11: error: strokes on a touchscreen take 1 to 3 fingers, not 4", 3),
        (.stroke, .contacts, "device = \"touchpad\"", 5,
         "rules.toml:5:11: error: strokes on a touchpad take 2 to 4 fingers, not 5", 4),
    ]

    @Test(arguments: limits.indices)
    func aCountPastTheLimitIsTheErrorItAlwaysWasAndTheNearestWithinIsNone(_ index: Int) {
        let limit = Self.limits[index]
        let outside = diagnostics(Self.rule(limit.gesture, limit.keys, fingers: limit.outside))
        #expect(outside.filter { $0.contains("finger") } == [limit.error])
        let inside = diagnostics(Self.rule(limit.gesture, limit.keys, fingers: limit.inside))
        #expect(inside.filter { $0.contains(": error: ") } == [])
        #expect(FingerLimit.of(limit.gesture, on: limit.input)?.counts.contains(limit.inside) == true)
    }

    @Test func everyLimitCheckEnforcesIsPinnedAbove() {
        let enforced = FingerLimit.all.filter { $0.complaint != nil }.map { "\($0.gesture.rawValue) \($0.input)" }
        #expect(enforced.sorted() == Self.limits.map { "\($0.gesture.rawValue) \($0.input)" }.sorted())
    }

    @Test func anyRuleTakesOneToTenFingers() {
        #expect(diagnostics(Self.rule(.tap, "", fingers: 11)) == [
            "rules.toml:4:11: error: fingers 11 is out of range; expected 1 to 10",
        ])
        #expect(diagnostics(Self.rule(.tap, "", fingers: 0)) == [
            "rules.toml:4:11: error: fingers 0 is out of range; expected 1 to 10",
        ])
    }

    /// The catalogue binds, per device, the counts in the table's `catalogued` column, in
    /// the order it always has.
    @Test func theCatalogueBindsTheTablesCounts() throws {
        let book = try Rulebook.parse(GestureCatalogue.text, file: GestureCatalogue.file)
        func fingers(_ gesture: GestureKind, _ device: DeviceKind) -> [Int] {
            book.rules.filter { $0.gesture == gesture && $0.device == device && $0.taps <= 1 }.map(\.fingers)
        }
        #expect(fingers(.tap, .touchpad) == [1, 2, 3])
        #expect(fingers(.tap, .touchscreen) == [1, 2, 3])
        #expect(fingers(.longPress, .touchpad) == [1, 2, 3, 4])
        #expect(fingers(.longPress, .touchscreen) == [1, 2, 3])
        #expect(fingers(.swipe, .touchpad) == [3, 4])
        #expect(fingers(.swipe, .touchscreen) == [1, 2, 3])
        #expect(fingers(.pinch, .touchpad) == [2, 3, 4])
        #expect(fingers(.pinch, .touchscreen) == [2, 3])
        #expect(book.rules.count == 32)
    }
}
