import TestSupport
import Testing

/// Every fuzz target, built without libFuzzer, runs its corpus and every input that
/// once crashed it (Fuzz/NAME/regressions); see scripts/fuzz.
@Suite struct FuzzRegressionTests {
    @Test(arguments: ["TOML", "Rules", "Recording", "FocusWire", "Device"])
    func everyCorpusAndRegressionInputRunsWithoutACrash(_ name: String) {
        let result = run(builtExecutable("Fuzz\(name)"))
        #expect(result.status == 0, "\(result.stderr)")
        let regressions = listFolder("\(packageRoot)/Fuzz/\(name)/regressions").filter { !$0.hasPrefix(".") }.count
        let corpus = listFolder("\(packageRoot)/Fuzz/\(name)/corpus").filter { !$0.hasPrefix(".") }.count
        #expect(result.stdout == "Fuzz\(name): \(corpus + regressions) inputs, no crash\n")
    }
}
