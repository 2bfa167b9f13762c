import Glibc
import TestSupport
import Testing
@testable import Rulebook

/// Opening a rule file: only a regular file of bounded size is read, without blocking,
/// and only when no other user could have changed it.
@Suite(.serialized) struct RuleFileLoaderTests {
    static let rules = "[rule.a]\ngesture = \"tap\"\ncommand = \"x\"\n"

    /// The one diagnostic (or all of them) that loading `path` gives, or "loaded N rules".
    static func load(_ path: String, requireSafePermissions: Bool = true) -> [String] {
        do {
            let book = try Rulebook.load(path: path, requireSafePermissions: requireSafePermissions)
            return book.warnings.map(\.description) + ["loaded \(book.rules.count) rules"]
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aSymlinkToDevZeroIsRefusedAsACharacterDeviceWithoutReadingIt() {
        let path = "\(temporaryFolder())/rules.toml"
        symlink("/dev/zero", path)
        #expect(Self.load(path) == ["\(path): error: refusing the rule file: it is a symlink to '/dev/zero', a character device, not a regular file; point touchgest at a regular file (a symlink to one is fine)"])
    }

    @Test func aFifoIsRefusedAtOnceInsteadOfWaitingForAWriter() {
        let path = "\(temporaryFolder())/rules.toml"
        mkfifo(path, 0o600)
        #expect(Self.load(path) == ["\(path): error: refusing the rule file: it is a FIFO, not a regular file; point touchgest at a regular file (a symlink to one is fine)"])
    }

    @Test func aFolderIsRefusedAsAFolder() {
        let path = "\(temporaryFolder())/rules.toml"
        mkdir(path, 0o700)
        #expect(Self.load(path) == ["\(path): error: refusing the rule file: it is a folder, not a regular file; point touchgest at a regular file (a symlink to one is fine)"])
    }

    @Test func aFileOfOneMebibyteIsReadAndOneByteMoreIsRefused() {
        let folder = temporaryFolder()
        let line = String(repeating: "#", count: 1023) + "\n"
        writeText("\(folder)/exact.toml", Self.rules + String(repeating: line, count: 1024 - 1) + String(repeating: "#", count: 1024 - Self.rules.utf8.count - 1) + "\n")
        #expect(readText("\(folder)/exact.toml").utf8.count == 1 << 20)
        #expect(Self.load("\(folder)/exact.toml") == ["loaded 1 rules"])
        writeText("\(folder)/big.toml", readText("\(folder)/exact.toml") + "\n")
        #expect(Self.load("\(folder)/big.toml") == ["\(folder)/big.toml: error: refusing the rule file: it is larger than 1 MiB (1048577 bytes); rule files are limited to 1 MiB"])
    }

    @Test func aSymlinkToAPrivateRegularFileIsFollowed() {
        let dotfiles = temporaryFolder()
        writeText("\(dotfiles)/rules.toml", Self.rules)
        let path = "\(temporaryFolder())/rules.toml"
        symlink("\(dotfiles)/rules.toml", path)
        #expect(Self.load(path) == ["loaded 1 rules"])
    }

    @Test(.enabled(if: getuid() == 0, "only root can give a file to another user"))
    func aFileOwnedByAnotherUserIsRefusedWithTheFix() {
        let path = "\(temporaryFolder())/rules.toml"
        writeText(path, Self.rules)
        chown(path, 65534, 65534)
        #expect(Self.load(path) == ["\(path): error: refusing a rule file owned by nobody (uid 65534): its owner can make touchgest run commands as you; it must be owned by you (root) or by root; fix it with: chown root '\(path)'"])
    }

    @Test func aGroupWritableFolderIsRefusedWithTheChmodThatFixesIt() {
        let folder = temporaryFolder()
        chmod(folder, 0o775)
        writeText("\(folder)/rules.toml", Self.rules)
        #expect(Self.load("\(folder)/rules.toml") == ["\(folder)/rules.toml: error: refusing a rule file in '\(folder)', which its group can write (mode 775): they could replace the rule file and run commands as you; fix it with: chmod g-w '\(folder)'"])
        chmod(folder, 0o755)
        #expect(Self.load("\(folder)/rules.toml") == ["loaded 1 rules"])
    }

    @Test func aGroupWritableFolderTwoLevelsUpIsFoundToo() {
        let top = temporaryFolder()
        mkdir("\(top)/config", 0o755)
        mkdir("\(top)/config/touchgest", 0o700)
        chmod(top, 0o770)
        writeText("\(top)/config/touchgest/rules.toml", Self.rules)
        #expect(Self.load("\(top)/config/touchgest/rules.toml") == ["\(top)/config/touchgest/rules.toml: error: refusing a rule file in '\(top)', which its group can write (mode 770): they could replace the rule file and run commands as you; fix it with: chmod g-w '\(top)'"])
    }

    @Test func aWorldWritableFolderIsRefusedButAStickyOneLikeTmpIsNot() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", Self.rules)
        chmod(folder, 0o777)
        #expect(Self.load("\(folder)/rules.toml") == ["\(folder)/rules.toml: error: refusing a rule file in '\(folder)', which any user can write (mode 777): they could replace the rule file and run commands as you; fix it with: chmod go-w '\(folder)'"])
        chmod(folder, 0o1777)
        #expect(Self.load("\(folder)/rules.toml") == ["loaded 1 rules"])
    }

    @Test func theFolderASymlinkLeadsToIsCheckedAsWellAsTheLinksOwn() {
        let shared = temporaryFolder()
        chmod(shared, 0o775)
        writeText("\(shared)/rules.toml", Self.rules)
        let path = "\(temporaryFolder())/rules.toml"
        symlink("\(shared)/rules.toml", path)
        #expect(Self.load(path) == ["\(path): error: refusing a rule file in '\(shared)', which its group can write (mode 775): they could replace the rule file and run commands as you; fix it with: chmod g-w '\(shared)'"])
    }

    @Test func withoutSafePermissionsRequiredTheProblemIsAWarning() {
        let folder = temporaryFolder()
        chmod(folder, 0o775)
        writeText("\(folder)/rules.toml", Self.rules)
        #expect(Self.load("\(folder)/rules.toml", requireSafePermissions: false) == [
            "\(folder)/rules.toml: warning: refusing a rule file in '\(folder)', which its group can write (mode 775): they could replace the rule file and run commands as you; fix it with: chmod g-w '\(folder)'",
            "loaded 1 rules",
        ])
    }
}
