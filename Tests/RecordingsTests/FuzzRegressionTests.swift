import CommandRunner
import TestSupport
import Testing

/// Every input the fuzzer ever crashed FuzzRecording with (Fuzz/Recording/regressions)
/// and its seed corpus replay without a crash in a normal build of the target.
@Suite struct FuzzRegressionTests {
    @Test func theFuzzCorpusAndRegressionsReplayWithoutACrash() {
        let folder = temporaryFolder()
        let runner = CommandRunner()
        var status: Int32 = -1
        runner.observer = { event in
            if case let .finished(_, _, result, _) = event, case let .exited(code) = result { status = code }
        }
        runner.run(.init(key: "fuzz", command: "'\(builtExecutable("FuzzRecording"))' '\(packageRoot)/Fuzz/Recording' > \(folder)/out 2>&1",
                         environment: [:], timeout: .seconds(120)))
        runner.waitUntilIdle(timeout: .seconds(150))
        let output = readText("\(folder)/out")
        #expect(status == 0, "\(output)")
        #expect(output.contains("corpus/tour.tgrec: replayed"))
        #expect(output.hasSuffix(" inputs, no crash\n"))
    }
}
