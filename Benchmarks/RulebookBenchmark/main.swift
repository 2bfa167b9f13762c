// Measures checking and compiling a require-to-fail graph, the work `touchgest run`,
// `check` and every reload do before a rule file is armed.
//
//   swift run -c release RulebookBenchmark [RULES...]      (default: 36 100 1000)
//
// Rule i requires rules i-1 and i-2 to fail, so the number of paths through the graph
// grows like the Fibonacci numbers (a walk of every path doubles every ~1.5 rules) while
// the graph itself grows linearly. Each rule filters on its own device name, so no two
// rules match the same gesture and the timing is the graph's alone.
import Glibc
import Rulebook
import TouchGestures

func graph(_ count: Int) -> String {
    var text = ""
    for index in 0..<count {
        let waits = [index - 1, index - 2].filter { $0 >= 0 }.map { "\"r\($0)\"" }
        text += """
            [rule.r\(index)]
            gesture = "tap"
            device-name = "pad \(index)"
            require-to-fail = [\(waits.joined(separator: ", "))]
            command = "true"


            """
    }
    return text
}

final class NoSink: CommandSink {
    func run(_ request: CommandRequest) {}
}

func seconds(_ work: () throws -> Void) rethrows -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    try work()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

/// `12.345`: seconds as milliseconds with three decimals.
func milliseconds(_ seconds: Double) -> String {
    let micros = Int((seconds * 1e6).rounded())
    let fraction = String(micros % 1000)
    return "\(micros / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

let counts = CommandLine.arguments.dropFirst().compactMap { Int($0) }
for count in counts.isEmpty ? [36, 100, 1000] : counts {
    let text = graph(count)
    var book: Rulebook?
    let check = try seconds { book = try Rulebook.parse(text, file: "graph.toml") }
    let compile = seconds {
        let compiled = CompiledRulebook(book!, sink: NoSink())
        compiled.attach(to: GestureEnvironment(scheduler: ManualScheduler()))
    }
    print("\(count) rules (\(book!.requirements.count) require-to-fail edges): check \(milliseconds(check)) ms, compile \(milliseconds(compile)) ms")
}
