import Glibc
import TestSupport
import Testing
@testable import Rulebook

/// Whether `word` stands in `text` as a whole word (not as part of `max-tap-duration`, say).
func mentionsWord(_ text: String, _ word: String) -> Bool {
    let characters = Array(text)
    let target = Array(word)
    let isWordCharacter: (Character) -> Bool = { $0.isLetter || $0.isNumber || $0 == "-" }
    guard characters.count >= target.count else { return false }
    for start in 0...(characters.count - target.count) where characters[start..<start + target.count].elementsEqual(target) {
        let before = start == 0 ? " " : characters[start - 1]
        let after = start + target.count == characters.count ? " " : characters[start + target.count]
        if !isWordCharacter(before) && !isWordCharacter(after) { return true }
    }
    return false
}

@Suite struct ShippedFilesTests {
    static let examples = listFolder("\(packageRoot)/examples").filter { $0.hasSuffix(".toml") }

    @Test func thereAreExamplesForEachDesktop() {
        for desktop in ["sway", "hyprland", "niri", "gnome", "kde", "x11", "rules"] {
            #expect(Self.examples.contains("\(desktop).toml"))
        }
    }

    @Test(arguments: examples)
    func everyShippedExampleIsValidWithoutWarnings(_ name: String) throws {
        let book = try Rulebook.load(path: "\(packageRoot)/examples/\(name)")
        #expect(book.warnings.isEmpty)
        #expect(!book.rules.isEmpty)
    }

    @Test func theManPageDescribesEveryKey() throws {
        let page = try Rulebook.readRuleFile("\(packageRoot)/man/touchgest-rules.5")
        for key in RuleKeys.all.map(\.name) + RuleKeys.settings {
            #expect(mentionsWord(page, key), "\(key)")
        }
        for variable in ["TOUCHGEST_RULE", "TOUCHGEST_GESTURE", "TOUCHGEST_PHASE", "TOUCHGEST_FINGERS", "TOUCHGEST_DEVICE",
                         "TOUCHGEST_DIRECTION", "TOUCHGEST_STEP", "TOUCHGEST_SCALE", "TOUCHGEST_ROTATION",
                         "TOUCHGEST_VELOCITY", "TOUCHGEST_X", "TOUCHGEST_Y", "TOUCHGEST_DX", "TOUCHGEST_DY", "TOUCHGEST_EDGE",
                         "TOUCHGEST_APP", "TOUCHGEST_TITLE", "TOUCHGEST_SCORE"] {
            #expect(page.contains(variable), "\(variable)")
        }
    }
}

/// The text between `.SH EXAMPLE`'s `.EX` and `.EE`, as `man` shows it: groff's `\(dq`,
/// `\e` and `\-` turned back into the characters they print.
func manPageExample(_ page: String) -> String? {
    guard let section = page.firstRange(of: "\n.SH EXAMPLE\n"),
          let start = page[section.upperBound...].firstRange(of: ".EX\n"),
          let end = page[start.upperBound...].firstRange(of: "\n.EE") else { return nil }
    var text = ""
    var characters = page[start.upperBound..<end.lowerBound][...]
    while let character = characters.first {
        characters = characters.dropFirst()
        guard character == "\\" else { text.append(character); continue }
        if characters.hasPrefix("(dq") {
            text.append("\"")
            characters = characters.dropFirst(3)
        } else if characters.hasPrefix("e") || characters.hasPrefix("\\") {
            text.append("\\")
            characters = characters.dropFirst()
        } else if characters.hasPrefix("-") {
            text.append("-")
            characters = characters.dropFirst()
        } else {
            text.append(character)
        }
    }
    return text + "\n"
}

@Suite struct ManPageExampleTests {
    @Test func theManPagesExampleIsAValidRuleFile() throws {
        let page = try Rulebook.readRuleFile("\(packageRoot)/man/touchgest-rules.5")
        let example = try #require(manPageExample(page))
        #expect(example.contains("on-step = \"notify-send \\\"zoom $TOUCHGEST_DIRECTION\\\"\""))
        let book = try Rulebook.parse(example, file: "touchgest-rules.5 EXAMPLE")
        #expect(book.warnings.isEmpty)
        #expect(book.rules.map(\.name) == ["single", "double", "next-workspace", "zoom", "volume"])
        #expect(book.rule(named: "volume")?.templates.count == 2)
        #expect(book.rule(named: "zoom")?.commands[.step] == "notify-send \"zoom $TOUCHGEST_DIRECTION\"")
    }
}

@Suite(.serialized) struct RuleFilePermissionTests {
    private func write(_ text: String, mode: mode_t) -> String {
        var template = Array("/tmp/touchgest-rules-XXXXXX".utf8CString)
        let folder = String(cString: mkdtemp(&template))
        chmod(folder, 0o700)
        let path = "\(folder)/rules.toml"
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
        chmod(path, mode)
        return path
    }

    @Test func aRuleFileOthersCanWriteIsRefusedWithTheFix() {
        let path = write("[rule.a]\ngesture = \"tap\"\ncommand = \"x\"\n", mode: 0o666)
        #expect(throws: RuleFileError.self) { try Rulebook.load(path: path) }
        do {
            _ = try Rulebook.load(path: path)
        } catch {
            #expect(error.description == "\(path): error: refusing a rule file that any user can write (mode 666): whoever can edit it can run commands as you; fix it with: chmod go-w '\(path)'")
        }
    }

    @Test func aGroupWritableRuleFileIsRefusedToo() {
        let path = write("[rule.a]\ngesture = \"tap\"\ncommand = \"x\"\n", mode: 0o664)
        do {
            _ = try Rulebook.load(path: path)
            Issue.record("a group-writable file was accepted")
        } catch {
            #expect(error.description.contains("that its group can write (mode 664)"))
        }
    }

    @Test func aPrivateRuleFileIsAccepted() throws {
        let path = write("[rule.a]\ngesture = \"tap\"\ncommand = \"x\"\n", mode: 0o600)
        #expect(try Rulebook.load(path: path).rules.count == 1)
    }

    @Test func aMissingFileSaysSo() {
        do {
            _ = try Rulebook.load(path: "/nonexistent/rules.toml")
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.description == "/nonexistent/rules.toml: error: cannot read the rule file: No such file or directory")
        }
    }
}
