import Testing
import TextWire
import TouchGestures

/// `device-size`, `device-name`, `application` and `title` globs come from a user's rule
/// file or command line: none may hang the daemon or overflow its stack (issue 24).
@Suite struct GlobTests {
    @Test func manyStarsThatCannotMatchGiveUpInsteadOfHanging() {
        // Exponential for a recursive matcher: 14 stars and a tail that never matches.
        let pattern = String(repeating: "*a", count: 14) + "b"
        let name = String(repeating: "a", count: 200)
        #expect(!globMatches(pattern, name))
        #expect(!StatedDeviceSize(namePattern: pattern, size: Size(width: 1, height: 1)).matches(name))
    }

    @Test func threeHundredThousandStarsDoNotOverflowTheStack() {
        let pattern = String(repeating: "*", count: 300_000)
        #expect(globMatches(pattern, "ILITEK Multi-Touch"))
        #expect(StatedDeviceSize(namePattern: pattern + "x", size: Size(width: 1, height: 1)).matches("Touchpad x"))
    }

    @Test(arguments: [
        ("*Touchpad*", "DLL075B:01 06CB:76AF Touchpad", true),
        ("ILITEK*", "ILITEK Multi-Touch", true),
        ("ILITEK*", "Goodix Capacitive", false),
        ("?oodix*", "Goodix Capacitive", true),
        ("", "", true),
        ("", "a", false),
        ("a*b*c", "aXbYc", true),
        ("a*b*c", "aXbY", false),
    ])
    func shellStyleMatching(pattern: String, name: String, matches: Bool) {
        #expect(globMatches(pattern, name) == matches)
    }
}
