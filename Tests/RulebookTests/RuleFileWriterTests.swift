import Glibc
import TestSupport
import Testing
@testable import Rulebook

/// Writing a rule file: a whole copy renamed over it, or nothing; never over what another
/// program saved since the file was read; never an invalid file.
@Suite struct RuleFileWriterTests {
    static let tap = "[rule.tap]\ngesture = \"tap\"\ncommand = \"true\"\n"
    static let swipe = "[rule.swipe]\ngesture = \"swipe\"\ndirection = \"left\"\ncommand = \"true\"\n"

    /// What `commit` threw, as the user reads it, or "written".
    static func commit(_ writer: RuleFileWriter, _ text: String) -> String {
        do {
            try writer.commit(text)
            return "written"
        } catch {
            return error.description
        }
    }

    @Test func theNewTextReplacesTheFileAndNoTemporaryFileIsLeft() throws {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", Self.tap)
        let writer = try RuleFileWriter(reading: "\(folder)/rules.toml")
        #expect(writer.text == Self.tap)
        #expect(Self.commit(writer, Self.tap + "\n" + Self.swipe) == "written")
        #expect(readText("\(folder)/rules.toml") == Self.tap + "\n" + Self.swipe)
        #expect(listFolder(folder) == [".", "..", "rules.toml"])
    }

    @Test func aFileAnEditorSavedInPlaceSinceTheReadIsRefusedAndKept() throws {
        let path = "\(temporaryFolder())/rules.toml"
        writeText(path, Self.tap)
        let writer = try RuleFileWriter(reading: path)
        // The editor writes the same number of bytes at once: the file's time may not
        // change within the clock's tick, its text does.
        let edited = Self.tap.replacing("true", with: "echo")
        writeText(path, edited)
        #expect(Self.commit(writer, Self.tap + "\n" + Self.swipe)
            == "\(path) changed since touchgest read it (another program saved it meanwhile); nothing was written and what that program saved is kept: run the command again")
        #expect(readText(path) == edited)
    }

    @Test func aFileAnEditorReplacedByRenameSinceTheReadIsRefusedAndKept() throws {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", Self.tap)
        let writer = try RuleFileWriter(reading: "\(folder)/rules.toml")
        writeText("\(folder)/rules.toml~", Self.tap)
        rename("\(folder)/rules.toml~", "\(folder)/rules.toml")
        #expect(Self.commit(writer, Self.tap + "\n" + Self.swipe).hasSuffix(" changed since touchgest read it (another program saved it meanwhile); nothing was written and what that program saved is kept: run the command again"))
        #expect(readText("\(folder)/rules.toml") == Self.tap)
        #expect(listFolder(folder) == [".", "..", "rules.toml"])
    }

    @Test func aFileMadeSinceTheReadFoundNoneIsNotReplaced() throws {
        let folder = temporaryFolder()
        let writer = try RuleFileWriter(reading: "\(folder)/rules.toml")
        #expect(writer.text == nil)
        writeText("\(folder)/rules.toml", Self.swipe)
        #expect(Self.commit(writer, Self.tap).hasSuffix(" changed since touchgest read it (another program saved it meanwhile); nothing was written and what that program saved is kept: run the command again"))
        #expect(readText("\(folder)/rules.toml") == Self.swipe)
        #expect(listFolder(folder) == [".", "..", "rules.toml"])
    }

    @Test func textThatWouldNotPassCheckIsRefusedWithItsErrors() throws {
        let path = "\(temporaryFolder())/rules.toml"
        writeText(path, Self.tap)
        let writer = try RuleFileWriter(reading: path)
        #expect(Self.commit(writer, Self.tap + "[rule.bad]\ngesture = \"tapp\"\ncommand = \"x\"\n")
            == "\(path):5:11: error: unknown gesture 'tapp' (did you mean 'tap'?); expected one of tap, long-press, swipe, pan, pinch, rotation, edge-pan, stroke")
        #expect(readText(path) == Self.tap)
    }

    @Test func theModeIsKeptAndANewFileIsPrivate() throws {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", Self.tap, mode: 0o640)
        try RuleFileWriter(reading: "\(folder)/rules.toml").commit(Self.swipe)
        var status = stat()
        #expect(stat("\(folder)/rules.toml", &status) == 0 && status.st_mode & 0o7777 == 0o640)
        try RuleFileWriter(reading: "\(folder)/new/rules.toml").commit(Self.swipe)
        #expect(stat("\(folder)/new/rules.toml", &status) == 0 && status.st_mode & 0o7777 == 0o600)
        #expect(stat("\(folder)/new", &status) == 0 && status.st_mode & 0o7777 == 0o700)
    }

    @Test(.enabled(if: getuid() == 0, "only root can give a file to another user"))
    func theOwnerAndGroupAreKept() throws {
        let path = "\(temporaryFolder())/rules.toml"
        writeText(path, Self.tap)
        chown(path, 65534, 65534)
        try RuleFileWriter(reading: path).commit(Self.swipe)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_uid == 65534 && status.st_gid == 65534)
        #expect(readText(path) == Self.swipe)
    }

    @Test func aSymlinkStaysALinkAndItsTargetIsWrittenEvenADanglingOne() throws {
        let dotfiles = temporaryFolder()
        let config = temporaryFolder()
        writeText("\(dotfiles)/rules.toml", Self.tap)
        symlink("../\(dotfiles.split(separator: "/").last!)/rules.toml", "\(config)/rules.toml")
        try RuleFileWriter(reading: "\(config)/rules.toml").commit(Self.swipe)
        var status = stat()
        #expect(lstat("\(config)/rules.toml", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(readText("\(dotfiles)/rules.toml") == Self.swipe)
        #expect(listFolder(dotfiles) == [".", "..", "rules.toml"])

        symlink("\(dotfiles)/touchgest/later.toml", "\(config)/later.toml")
        let writer = try RuleFileWriter(reading: "\(config)/later.toml")
        #expect(writer.text == nil && writer.target == "\(dotfiles)/touchgest/later.toml")
        try writer.commit(Self.tap)
        #expect(lstat("\(config)/later.toml", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
        #expect(readText("\(config)/later.toml") == Self.tap)
    }
}
