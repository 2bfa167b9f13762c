import TestSupport
import Testing
import TOML

/// The TOML project's own suite (Fixtures/toml-test, see its README).
@Suite struct TomlTestSuiteTests {
    static let folder = "\(packageRoot)/Tests/TOMLTests/Fixtures/toml-test"

    static func list(_ name: String) -> [String] {
        readText("\(folder)/\(name)").split(separator: "\n").map(String.init).filter { $0.hasSuffix(".toml") }
    }

    static let version10 = list("files-toml-1.0.0")
    static let valid = version10.filter { $0.hasPrefix("valid/") }
    static let invalid = version10.filter { $0.hasPrefix("invalid/") }
    static let everyFile = Array(Set(version10 + list("files-toml-1.1.0"))).sorted()

    @Test func theFixturesAreAllThere() {
        #expect(Self.valid.count > 200)
        #expect(Self.invalid.count > 400)
        for file in Self.everyFile { #expect(readBytes("\(Self.folder)/\(file)") != nil, "\(file)") }
    }

    @Test(arguments: valid)
    func aValidFileDecodesToItsJSON(_ file: String) throws {
        let bytes = try #require(readBytes("\(Self.folder)/\(file)"))
        let json = try #require(readBytes("\(Self.folder)/\(file.dropLast(5)).json"))
        let expected = try JSONReader.parse(json)
        let table: TOMLTable
        do {
            table = try TOMLParser().parse(utf8: bytes)
        } catch {
            Issue.record("\(file): \(error)")
            return
        }
        let difference = TaggedJSON(table).difference(from: expected)
        #expect(difference == nil, "\(file)")
    }

    @Test(arguments: invalid)
    func anInvalidFileIsRejectedWithAPosition(_ file: String) throws {
        let bytes = try #require(readBytes("\(Self.folder)/\(file)"))
        let lines = bytes.count { $0 == 0x0A } + 1
        do {
            let table = try TOMLParser().parse(utf8: bytes)
            Issue.record("\(file) was accepted: \(TaggedJSON(table))")
        } catch {
            #expect((1...lines).contains(error.position.line), "\(file): \(error)")
            #expect(error.position.column >= 1, "\(file): \(error)")
            #expect(!error.message.isEmpty)
        }
    }

    /// TOML 1.1 is not supported, but no file of the suite may crash or hang the parser,
    /// and every rejection has a position inside the file.
    @Test func everyFileOfTheSuiteEndsInATableOrAPositionedError() throws {
        for file in Self.everyFile {
            let bytes = try #require(readBytes("\(Self.folder)/\(file)"))
            do {
                _ = try TOMLParser().parse(utf8: bytes)
            } catch {
                #expect(error.position.line >= 1 && error.position.line <= bytes.count { $0 == 0x0A } + 1, "\(file): \(error)")
            }
        }
    }
}
