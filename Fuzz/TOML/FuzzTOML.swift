// Fuzzes the TOML parser alone: any bytes must give a table or a positioned error,
// never a trap, a hang or a position outside the input. See scripts/fuzz.
import FuzzSupport
import Glibc
import TOML

/// One input: parse it, then check what came back.
func fuzzOne(_ bytes: [UInt8]) {
    let lines = bytes.count { $0 == 0x0A } + 1
    do {
        let table = try TOMLParser().parse(utf8: bytes)
        check(table, lines: lines)
    } catch {
        guard (1...lines).contains(error.position.line), error.position.column >= 1, !error.message.isEmpty else {
            fatalError("bad error position \(error) for an input of \(lines) lines")
        }
    }
}

/// Every position in the tree lies inside the input.
func check(_ table: TOMLTable, lines: Int) {
    for entry in table.entries {
        guard (1...lines).contains(entry.keyPosition.line), entry.keyPosition.column >= 1 else {
            fatalError("key '\(entry.key)' placed at \(entry.keyPosition) in an input of \(lines) lines")
        }
        check(entry.value, lines: lines)
    }
}

func check(_ value: TOMLValue, lines: Int) {
    guard (1...lines).contains(value.position.line), value.position.column >= 1 else {
        fatalError("value placed at \(value.position) in an input of \(lines) lines")
    }
    switch value.content {
    case let .array(elements): for element in elements { check(element, lines: lines) }
    case let .table(table): check(table, lines: lines)
    case .string, .integer, .float, .boolean, .dateTime: break
    }
}

@main struct FuzzTOMLMain {
    static func main() {
        FuzzTarget.run("FuzzTOML", folder: FuzzTarget.folder(of: #filePath), fuzzOne)
    }
}
