import Testing
@testable import CommandRunner

@Suite struct EnvironmentBlockTests {
    /// What execve gets: the base entries in name order less those a job sets, then the
    /// job's own (in no set order), then the terminating nil.
    @Test func aJobsVariablesReplaceTheBaseOnesOfTheirNameAndFollowThem() {
        let block = EnvironmentBlock(["PATH": "/bin", "A": "1", "M": "2", "Z": "3"])
        // Names that sort before, between and after the base's, and one it has.
        let overrides = ["M": "x", "B": "y", "ZZ": "z", "0": "w"]
        let (entries, terminated) = block.withEntries(adding: overrides) { envp in
            (envp.dropLast().map { $0.map { String(cString: $0) } ?? "nil" }, envp.last == .some(nil))
        }
        #expect(Array(entries.prefix(3)) == ["A=1", "PATH=/bin", "Z=3"])
        #expect(entries.dropFirst(3).sorted() == ["0=w", "B=y", "M=x", "ZZ=z"])
        #expect(terminated)
    }

    @Test func withNoVariablesOfItsOwnAJobGetsTheBaseAsItIs() {
        let block = EnvironmentBlock(["HOME": "/root", "A": "1"])
        let entries = block.withEntries { envp in envp.dropLast().map { $0.map { String(cString: $0) } ?? "nil" } }
        #expect(entries == ["A=1", "HOME=/root"])
    }
}
