import Testing
@testable import Rulebook
import TouchGestures

/// Large require-to-fail graphs: checked and wired in time that grows with the graph,
/// not with the number of paths through it. Before the fix a 36-rule graph like these
/// took minutes, so these tests would hang if the cost went exponential again; the time
/// itself is measured by Benchmarks/RulebookBenchmark.
@Suite struct RequirementGraphTests {
    /// Rule i waits for rules i-1 and i-2: the paths through it multiply like the
    /// Fibonacci numbers. Each rule has its own device name, so no two are alike.
    static func graph(_ count: Int, extra: [Int: [Int]] = [:]) -> String {
        (0..<count).map { index in
            let waits = ([index - 1, index - 2].filter { $0 >= 0 } + extra[index, default: []]).map { "\"r\($0)\"" }
            return """
                [rule.r\(index)]
                gesture = "tap"
                device-name = "pad \(index)"
                require-to-fail = [\(waits.joined(separator: ", "))]
                command = "true"

                """
        }.joined(separator: "\n")
    }

    @Test func aThousandRuleGraphIsCheckedAndEveryRequirementReachesTheEngine() throws {
        let book = try Rulebook.parse(Self.graph(1000), file: "rules.toml")
        #expect(book.warnings.isEmpty)
        #expect(book.requirements.count == 1997)
        let compiled = CompiledRulebook(book, sink: Recorder())
        for (index, recognizer) in compiled.recognizers.enumerated() {
            let expected = [index - 1, index - 2].filter { $0 >= 0 }.map { "r\($0)" }
            #expect(recognizer.failureRequirements.map(\.name) == expected, "r\(index)")
        }
    }

    @Test func aCycleAtTheFarEndOfALongGraphIsReportedOnceWithItsTwoRules() {
        // r38 already waits for r37 and r36; making it wait for r39 too closes r38 -> r39 -> r38.
        #expect(diagnostics(Self.graph(40, extra: [38: [39]])) == [
            "rules.toml:232:19: error: require-to-fail cycle: r38 -> r39 -> r38; each would wait for the other forever: r38 waits for r39 (require-to-fail), r39 waits for r38 (require-to-fail)",
        ])
    }

    @Test func aCycleThroughThreeRulesStartsAtTheFirstInTheFile() {
        #expect(diagnostics("""
            [rule.a]
            gesture = "swipe"
            require-to-fail = ["b"]
            command = "x"

            [rule.b]
            gesture = "pinch"
            require-to-fail = ["c"]
            command = "x"

            [rule.c]
            gesture = "rotation"
            require-to-fail = ["a"]
            command = "x"
            """) == ["rules.toml:3:19: error: require-to-fail cycle: a -> b -> c -> a; each would wait for the other forever: a waits for b (require-to-fail), b waits for c (require-to-fail), c waits for a (require-to-fail)"])
    }

    @Test func requirementsAreWiredWaitersFirstSoTheEngineNeverSearchesFar() {
        let requirements = [("a", "b"), ("b", "c"), ("a", "c"), ("d", "a")].map {
            Rulebook.Requirement(waiter: $0.0, waitedOn: $0.1, reason: .explicit)
        }
        let order = CompiledRulebook.waitersFirst(requirements).map { "\($0.waiter)>\($0.waitedOn)" }
        #expect(Set(order) == ["a>b", "b>c", "a>c", "d>a"])
        // Every rule's own waits come before the waits of any rule it waits for.
        for (index, edge) in order.enumerated() {
            let waitedOn = edge.split(separator: ">")[1]
            #expect(!order[..<index].contains { $0.hasPrefix("\(waitedOn)>") }, "\(order)")
        }
    }
}
