import Testing
@testable import Rulebook

@Suite struct GestureCatalogueTests {
    @Test func theCatalogueIsValidWithoutWarningsAndCoversEveryGesture() throws {
        let book = try Rulebook.parse(GestureCatalogue.text, file: GestureCatalogue.file)
        #expect(book.warnings.isEmpty, "\(book.warnings)")
        // A stroke needs a shape the user draws first (touchgest learn): no catalogue entry.
        #expect(Set(book.rules.map(\.gesture)) == Set(GestureKind.allCases).subtracting([.pan, .stroke]))
        // Touchpads: taps of 1-3 fingers (single and double), holds of 1-4, swipes of 3 and 4.
        let touchpad = book.rules.filter { $0.device == .touchpad }
        #expect(touchpad.filter { $0.gesture == .tap }.map { "\($0.taps)x\($0.fingers)" }.sorted() == ["1x1", "1x2", "1x3", "2x1", "2x2", "2x3"])
        #expect(touchpad.filter { $0.gesture == .swipe }.map(\.fingers) == [3, 4])
        #expect(book.rules.filter { $0.device == .touchscreen && $0.gesture == .swipe }.allSatisfy { $0.directions == .all })
    }
}
