import Testing
@testable import TouchgestDaemon

/// The pages of code and read-only data a started daemon gives back (StartupPages).
struct StartupPagesTests {
    /// This test process has read-only file mappings with no private page (its code, the
    /// Swift runtime's, libc's): they are released, and the code runs on (its pages come
    /// back from the page cache as it runs).
    @Test func readOnlyFileMappingsAreReleasedAndTheCodeRunsOn() throws {
        let released = try #require(StartupPages.release())
        #expect(released > 0)
        #expect(try #require(StartupPages.release()) == released)
    }
}
