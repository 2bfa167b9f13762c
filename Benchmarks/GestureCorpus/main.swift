// Prints the recognition table: the generated human-like corpus (Tests/HumanInput) run
// through the corpus rule file on the current engine, the same path `touchgest replay`
// takes. Run it in release mode:
//
//     swift run -c release GestureCorpus            # the table
//     swift run -c release GestureCorpus --misses   # and every sample that was not right
import Glibc
import HumanInput
import Rulebook

let showMisses = CommandLine.arguments.contains("--misses")
let run: CorpusRun
do {
    run = try CorpusRun()
} catch {
    for diagnostic in error.diagnostics { print(diagnostic.description) }
    exit(1)
}
let samples = Corpus.samples()
let card = Scorecard.measure(samples, with: run)
print("\(samples.count) samples, seed \(Corpus.seed)\n")
print(card.table)
let named = card.outcomes.filter(\.sample.isNamedCase)
print("\nnamed cases (issue): \(named.filter { $0.verdict == .right }.count) of \(named.count) fired once and right")
for outcome in named where outcome.verdict != .right {
    print("  \(outcome.verdict.rawValue): \(outcome.sample.name) fired \(outcome.fired)")
}
if showMisses {
    print("\nnot right:")
    for outcome in card.outcomes where outcome.verdict != .right && outcome.verdict != .quiet {
        print("  \(outcome.verdict.rawValue): \(outcome.sample.name) fired \(outcome.fired)")
    }
}
if !run.diagnostics.isEmpty {
    print("\nengine diagnostics: \(run.diagnostics.count)")
    for line in run.diagnostics.prefix(10) { print("  \(line)") }
}
// --show TEXT: every event and command of the samples whose name contains TEXT.
if let index = CommandLine.arguments.firstIndex(of: "--show"), index + 1 < CommandLine.arguments.count {
    let text = CommandLine.arguments[index + 1]
    for outcome in card.outcomes where outcome.sample.name.contains(text) {
        print("\n\(outcome.sample.name): \(outcome.verdict.rawValue)")
        print(RecordingText.recording([outcome.sample]), terminator: "")
        for request in outcome.requests {
            let values = request.environment.filter { $0.key != "TOUCHGEST_RULE" }.sorted { $0.key < $1.key }
                .map { "\($0.key.dropFirst(10))=\($0.value)" }.joined(separator: " ")
            print("  -> \(request.rule) \(request.phase.rawValue) \(values)")
        }
    }
}
