import HumanInput
import TestSupport
import Testing

/// Generated samples written as `.tgrec` recordings and replayed by the real
/// `touchgest replay`: the file format carries them whole, and the binary fires what
/// the in-process corpus run fires.
@Suite struct CorpusReplayTests {
    static let samples = Corpus.samples()

    /// A few samples of different kinds, one of them a named case of the issue.
    static let chosen: [Sample] = [
        samples.first { $0.name == "named: touchpad swipe 3f left 60mm/600ms" }!,
        samples.first { $0.kind == .touchpadPinch }!,
        samples.first { $0.kind == .touchpadRestHold }!,
        samples.first { $0.kind == .touchscreenDoubleTap }!,
        samples.first { $0.kind == .touchscreenRotation }!,
    ]

    /// `rule phase` of every command in the replay's output.
    static func fired(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            guard let open = line.firstRange(of: "would run ["), let close = line.firstIndex(of: "]") else { return nil }
            return line[open.upperBound..<close].split(separator: " ").prefix(2).joined(separator: " ")
        }
    }

    @Test func theReplayFiresWhatTheCorpusRunFires() throws {
        let folder = temporaryFolder()
        writeText("\(folder)/corpus.tgrec", RecordingText.recording(Self.chosen))
        writeText("\(folder)/corpus.toml", CorpusRules.text)
        let result = touchgest("replay \(folder)/corpus.tgrec --rules \(folder)/corpus.toml -v")
        #expect(result.status == 0, "\(result.stderr)")
        let run = try CorpusRun()
        let expected = Self.chosen.flatMap { sample in run.requests(for: sample).map { "\($0.rule) \($0.phase.rawValue)" } }
        #expect(!expected.isEmpty)
        #expect(Self.fired(result.stdout) == expected)
    }

    @Test func aSixtyMillimetreSwipeOverSixHundredMillisecondsFiresOnce() {
        let folder = temporaryFolder()
        writeText("\(folder)/swipe.tgrec", RecordingText.recording([Self.chosen[0]]))
        writeText("\(folder)/corpus.toml", CorpusRules.text)
        let result = touchgest("replay \(folder)/swipe.tgrec --rules \(folder)/corpus.toml -v")
        #expect(Self.fired(result.stdout) == ["tp3-left recognized"])
    }
}
