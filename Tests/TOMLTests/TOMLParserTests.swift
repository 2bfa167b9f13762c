import Testing
import TOML

/// The error of parsing `text`, as `line:column: message`, or nil when it parses.
func parseError(_ text: String, limits: TOMLParser.Limits = TOMLParser.Limits()) -> String? {
    do {
        _ = try TOMLParser(limits: limits).parse(text)
        return nil
    } catch {
        return error.description
    }
}

@Suite struct TOMLPositionTests {
    @Test func keysValuesAndTablesKnowWhereTheyAre() throws {
        let root = try TOMLParser().parse("""
            title = "x"
            [server.http]
              port = 8080
            points = [ 1, { x = 2 } ]
            """)
        let title = try #require(root.entry("title"))
        #expect(title.keyPosition == TOMLPosition(line: 1, column: 1))
        #expect(title.value.position == TOMLPosition(line: 1, column: 9))
        let server = try #require(root.entry("server"))
        #expect(server.value.table?.origin == .implicit)
        #expect(server.value.position == TOMLPosition(line: 2, column: 2))
        let http = try #require(server.value.table?.entry("http"))
        #expect(http.keyPosition == TOMLPosition(line: 2, column: 9))
        #expect(http.value.table?.origin == .header)
        #expect(http.value.position == TOMLPosition(line: 2, column: 1))
        let port = try #require(http.value.table?.entry("port"))
        #expect(port.keyPosition == TOMLPosition(line: 3, column: 3))
        #expect(port.value.integer == 8080 && port.value.position == TOMLPosition(line: 3, column: 10))
        let points = try #require(http.value.table?["points"]?.array)
        #expect(points.map(\.position) == [TOMLPosition(line: 4, column: 12), TOMLPosition(line: 4, column: 15)])
        #expect(points[1].table?["x"]?.position == TOMLPosition(line: 4, column: 21))
    }

    @Test func crlfAndAByteOrderMarkShiftNothing() throws {
        let root = try TOMLParser().parse("\u{FEFF}a = 1\r\n[t]\r\nb = \"\"\"\r\nx\r\n\"\"\"\r\nc = 2\r\n")
        #expect(root.entry("a")?.keyPosition == TOMLPosition(line: 1, column: 1))
        #expect(root.entry("a")?.value.position == TOMLPosition(line: 1, column: 5))
        let table = try #require(root["t"]?.table)
        #expect(table.position == TOMLPosition(line: 2, column: 1))
        #expect(table["b"]?.string == "x\n")
        #expect(table.entry("c")?.keyPosition == TOMLPosition(line: 6, column: 1))
        #expect(parseError("\u{FEFF}a = ?") == "1:5: expected a value, found '?'")
        #expect(parseError("a = 1\r\nb = ?\r\n") == "2:5: expected a value, found '?'")
    }

    @Test func columnsCountCharactersAsShown() {
        #expect(parseError("\"é\" = ?") == "1:7: expected a value, found '?'")
        #expect(parseError("\"e\u{301}🇫🇷\" = ?") == "1:8: expected a value, found '?'")
        #expect(parseError("\ta = ?") == "1:6: expected a value, found '?'")
    }

    @Test func keysKeepTheirWrittenOrder() throws {
        let root = try TOMLParser().parse("z = 1\na = 2\n[m]\n[b]\nk.y = 1\nk.c = 2\n")
        #expect(root.keys == ["z", "a", "m", "b"])
        #expect(root["b"]?.table?["k"]?.table?.keys == ["y", "c"])
    }

    @Test func dotsAndEscapesInKeysAreDecoded() throws {
        let root = try TOMLParser().parse("[rule.\"a.b\"]\n[rule.'c d']\n[rule.\"e\\u0020f\"]\n")
        #expect(root["rule"]?.table?.keys == ["a.b", "c d", "e f"])
        #expect(root["rule"]?.table?.entry("e f")?.keyPosition == TOMLPosition(line: 3, column: 7))
    }

    @Test func duplicatesSayWhereTheFirstOneIs() throws {
        do {
            _ = try TOMLParser().parse("[a]\nx = 1\n\n[a]\n")
            Issue.record("a duplicate table was accepted")
        } catch {
            #expect(error.description == "4:1: duplicate table [a]; first defined at line 1")
            #expect(error.reason == .duplicate(path: ["a"], first: TOMLPosition(line: 1, column: 1)))
        }
        #expect(parseError("[t]\nx.y = 1\nx.y = 2\n") == "3:3: duplicate key 'x.y'; first defined at line 2")
        #expect(parseError("[fruit]\napple.color = \"red\"\n[fruit.apple]\n")
            == "3:1: table [fruit.apple] was already defined by the dotted key at line 2")
        #expect(parseError("a = { b = 1 }\na.c = 2\n")
            == "2:1: 'a' is an inline table (line 1); an inline table cannot be added to later")
    }
}

@Suite struct TOMLLimitTests {
    @Test func inputThatCrashedTOMLKitIsAnError() {
        #expect(parseError("[ = 3\n") == "1:3: expected a key, found '='; bare keys use A-Z a-z 0-9 _ -, others need quotes")
        #expect(parseError("[") == "1:2: expected a key, found the end of the file; bare keys use A-Z a-z 0-9 _ -, others need quotes")
        #expect(parseError("[\n") == "1:2: expected a key, found the end of the line; bare keys use A-Z a-z 0-9 _ -, others need quotes")
        #expect(parseError("[a.]") == "1:4: expected a key after 'a', found ']'; bare keys use A-Z a-z 0-9 _ -, others need quotes")
    }

    @Test func deepNestingIsAnErrorNotAStackOverflow() {
        let dotted = String(repeating: "a.", count: 150_000) + "a = 1"
        #expect(parseError(dotted) == "1:201: key has more than 100 parts")
        let header = "[" + String(repeating: "a.", count: 150_000) + "a]"
        #expect(parseError(header) == "1:202: key has more than 100 parts")
        let arrays = "a = " + String(repeating: "[", count: 150_000) + String(repeating: "]", count: 150_000)
        #expect(parseError(arrays) == "1:105: arrays and tables nested more than 100 deep")
        let tables = "a = " + String(repeating: "{b = ", count: 150_000) + "1" + String(repeating: "}", count: 150_000)
        #expect(parseError(tables) == "1:505: arrays and tables nested more than 100 deep")
        // Depth counts headers, dotted keys and values together.
        let mixed = "[" + String(repeating: "a.", count: 59) + "a]\n" + String(repeating: "b.", count: 39) + "b = [[1]]"
        #expect(parseError(mixed) == "2:84: arrays and tables nested more than 100 deep")
    }

    @Test func aDocumentOverTheSizeLimitIsRefusedAtOnce() {
        let limits = TOMLParser.Limits(maximumSize: 10, maximumDepth: 100)
        #expect(parseError("a = \"0123456789\"", limits: limits) == "1:1: the document is 16 bytes; the most allowed is 10")
    }

    @Test func numbersOutOfRangeAreErrorsNotTraps() throws {
        #expect(parseError("a = 9223372036854775808") == "1:5: integer '9223372036854775808' does not fit in 64 bits; expected -9223372036854775808 to 9223372036854775807")
        #expect(parseError("a = 0xFFFFFFFFFFFFFFFF") == "1:5: integer '0xFFFFFFFFFFFFFFFF' does not fit in 64 bits; expected -9223372036854775808 to 9223372036854775807")
        #expect(parseError("a = 1e400") == "1:5: float '1e400' is out of range: larger than 1.7976931348623157e+308")
        let root = try TOMLParser().parse("a = -9223372036854775808\nb = 0x7FFFFFFFFFFFFFFF\nc = -inf\nd = 1e-400")
        #expect(root["a"]?.integer == .min && root["b"]?.integer == .max)
        #expect(root["c"]?.float == -.infinity && root["d"]?.float == 0)
    }

    @Test func bytesThatAreNotUTF8ArePlaced() {
        do {
            _ = try TOMLParser().parse(utf8: Array("a = \"é".utf8) + [0xFF, 0x22])
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.description == "1:7: invalid UTF-8 byte 0xFF; a TOML document is UTF-8 text")
        }
    }
}
