import TestSupport
import Testing
@testable import Rulebook

/// touchgest-rules(5) lists every key the parser takes, and no other: the key table
/// (RuleKeys, with the tunables from TunableKey) is the source, and this holds the page to it.
@Suite struct ManualPageTests {
    /// The names an `.SH TITLE` section of the page lists as `.BR name ", " name " (...)"`
    /// after a `.TP` or `.TQ`.
    static func listedKeys(in title: String) -> [String] {
        let page = readText("\(packageRoot)/man/touchgest-rules.5").split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = page.firstIndex(of: ".SH \(title)") else { return [] }
        let section = page[page.index(after: start)...].prefix { !$0.hasPrefix(".SH ") }
        var names: [String] = []
        var previous: Substring = ""
        for line in section {
            defer { previous = line }
            guard previous == ".TP" || previous == ".TQ", line.hasPrefix(".BR ") else { continue }
            // Outside the quotes: the names; inside: separators and the value's description.
            let parts = line.dropFirst(4).split(separator: "\"", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() where index % 2 == 0 {
                names += part.split(separator: " ").map(String.init)
            }
        }
        return names
    }

    @Test func theRuleKeysSectionListsExactlyTheKeysARuleTakes() {
        #expect(Self.listedKeys(in: "RULE KEYS").sorted() == RuleKeys.all.map(\.name).sorted())
    }

    @Test func theSettingsSectionListsExactlyTheSettingsKeys() {
        #expect(Self.listedKeys(in: "SETTINGS").sorted() == RuleKeys.settings.sorted())
    }
}
