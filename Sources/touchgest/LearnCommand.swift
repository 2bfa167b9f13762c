import ArgumentParser
import Glibc
import Rulebook
import StrokeGestures
import TouchGestures
import TouchgestDaemon

struct LearnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Draw a shape a few times and get a stroke rule that recognizes it.",
        discussion: """
            Draw the shape on a touchscreen (1-3 fingers) or a touchpad (2-4 fingers: one is the
            pointer) --examples times, as you will draw it, or give a recording of the drawings
            (--from, made with touchgest record; touchgest record --fingers for a touchpad).
            Each drawing becomes a template. learn says how close each drawing comes to the
            others' templates (one unlike the rest is worth drawing again) and warns when a
            drawing of the shape, or a template of a stroke rule of the rule file on the same
            fingers, comes closer to the other shape than to the other drawings of its own:
            the two would be confused. A rule holds at most 16 templates: from
            a recording of more drawings learn keeps the 16 most typical, and says so. It
            prints the rule on standard output; with --append it adds the rule to the end of
            the rule file instead, never changing what is there: it writes a whole new copy
            beside the file and renames it over (a full disk leaves the file as it was; a
            symlink stays a link to it; mode and owner are kept), and refuses, saying why, a
            name the file has already, a file that would not pass touchgest check with the
            rule, or a file another program changed meanwhile. Progress and scores go to
            standard error.
            """
    )

    @Argument(help: ArgumentHelp("The rule's name.", valueName: "name"))
    var name: String

    @Option(name: .customLong("from"), help: ArgumentHelp("Learn from the strokes of this recording instead of drawing live.",
                                                          valueName: "file.tgrec"))
    var recording: String?

    @Option(help: ArgumentHelp("How many drawings to wait for, live (1 to 16).", valueName: "count"))
    var examples = 3

    @Option(help: ArgumentHelp("Fingers that draw together: 1-3 on a touchscreen, 2-4 on a touchpad.", valueName: "count"))
    var fingers = 1

    @Option(help: ArgumentHelp("The score (0.5 to 0.99) the closest template must reach; written into the rule unless it is the default, 0.8.",
                               valueName: "score"))
    var threshold: Double?

    @Option(help: ArgumentHelp("The command the rule runs (default: a desktop notification naming it).", valueName: "command"))
    var command: String?

    @Flag(help: "Add the rule to the end of the rule file instead of printing it.")
    var append = false

    @OptionGroup var rules: RulesOptions
    @OptionGroup var input: InputOptions

    func validate() throws {
        guard (1...4).contains(fingers) else { throw ValidationError("--fingers must be 1 to 4 (1-3 on a touchscreen, 2-4 on a touchpad), not \(fingers)") }
        guard (1...StrokeDefaults.maximumTemplatesPerRule).contains(examples) else {
            throw ValidationError("--examples must be 1 to \(StrokeDefaults.maximumTemplatesPerRule), not \(examples)")
        }
        if let threshold, !(0.5...0.99).contains(threshold) {
            throw ValidationError("--threshold must be a score from 0.5 to 0.99, not \(threshold)")
        }
        guard !name.isEmpty, Rule.unprintable(in: name) == nil else {
            throw ValidationError("the rule's name must be printable text")
        }
    }

    func run() throws {
        let learning = StrokeLearning(fingers: fingers)
        let existing: Rulebook? = access(rules.path, F_OK) == 0 ? try? Rulebook.load(path: rules.path, requireSafePermissions: false) : nil
        if access(rules.path, F_OK) == 0 && existing == nil {
            printError("touchgest: warning: \(rules.path) has errors (touchgest check): the shape is not compared with its stroke rules")
        }
        var number = 0
        // Counted here: learning.examples filters every stroke so far, once per stroke.
        var taken = 0
        learning.collector.onStroke = { report in
            number += 1
            guard report.entries.first?.ending == .noTemplates else {
                printError("stroke \(number): \(report.entries.first?.ending?.description ?? "stopped"); not an example")
                return
            }
            taken += 1
            let device = report.touchType == .indirect ? "touchpad" : "touchscreen"
            printError("example \(taken): \(fixedDecimals(report.path.length, 0)) mm on the \(device), \(fixedDecimals(report.path.size, 0)) mm across")
        }
        if let recording {
            do {
                try learning.collect(from: try RecordingReader(path: recording))
            } catch {
                printError("\(error)")
                throw ExitCode(1)
            }
        } else {
            try drawLive(learning)
        }
        let lesson: StrokeLesson
        do {
            lesson = try learning.lesson(name: name, command: command ?? "notify-send '\(name.replacing("'", with: ""))'",
                                         threshold: threshold, rules: existing)
        } catch {
            printProblem(error)
            throw ExitCode(1)
        }
        report(lesson)
        if append {
            do {
                try StrokeLearning.append(lesson, to: rules.path)
            } catch {
                printProblem(error)
                throw ExitCode(1)
            }
            printError("touchgest: added rule '\(name)' to \(rules.path)")
        } else {
            print(lesson.rule, terminator: "")
        }
    }

    /// Collects drawings from the devices until there are enough, or SIGINT.
    private func drawLive(_ learning: StrokeLearning) throws {
        // The pipeline holds its observer weakly.
        let observer = LearnObserver()
        let pipeline = try GesturePipeline.open(input, runCommands: false, observer: observer)
        learning.collect(on: pipeline)
        let wanted = examples
        let previous = learning.collector.onStroke
        learning.collector.onStroke = { report in
            previous?(report)
            if learning.examples.count >= wanted { pipeline.loop.stop() }
        }
        let place = fingers == 1 ? "on a touchscreen" : fingers == 4 ? "on a touchpad" : "on a touchscreen or touchpad"
        printError("touchgest: draw '\(name)' \(wanted) time\(wanted == 1 ? "" : "s") with \(fingers) finger\(fingers == 1 ? "" : "s") \(place), as you will draw it; Ctrl-C to stop early")
        withExtendedLifetime(observer) { _ = pipeline.runUntilSignalled() }
        if learning.examples.count < wanted && !learning.examples.isEmpty {
            printError("touchgest: warning: \(learning.examples.count) of \(wanted) drawings; fewer templates recognize fewer ways of drawing the shape")
        }
    }

    /// `problem` on standard error, a line at a time: its first line is touchgest's, those
    /// after it the rule file's diagnostics (FILE:LINE:COLUMN: error: ...), as check prints them.
    private func printProblem(_ problem: StrokeLearning.Problem) {
        for (index, line) in problem.description.split(separator: "\n").enumerated() {
            printError(index == 0 ? "touchgest: error: \(line)" : String(line))
        }
    }

    /// How close each drawing came to the others, and to the file's stroke rules.
    private func report(_ lesson: StrokeLesson) {
        if lesson.kept.count < lesson.examples.count {
            let compared = min(lesson.examples.count, StrokeDefaults.learnCandidates)
            let among = compared == lesson.examples.count ? "the others" : "\(compared) drawings spread over them"
            printError("touchgest: kept \(lesson.kept.count) of the \(lesson.examples.count) drawings, the most typical (closest on average to \(among)): a rule holds at most \(StrokeDefaults.maximumTemplatesPerRule) templates")
        }
        for (index, score) in zip(lesson.kept, lesson.scores) {
            guard let score else { continue }
            printError("example \(index + 1) scores \(fixedDecimals(score, 2)) against the other examples' templates")
        }
        for example in lesson.unlikeTheRest {
            printError("touchgest: warning: example \(example) is unlike the others (under the threshold \(fixedDecimals(lesson.threshold, 2))): a stroke drawn like it may not be recognized; draw the shape again, or keep it if you draw it both ways")
        }
        for neighbour in lesson.neighbours {
            // The drawing that comes nearest the other shape, past its own.
            guard let worst = neighbour.confusions.max(by: { $0.rival - $0.own < $1.rival - $1.own }) else { continue }
            let which = worst.isExample
                ? "example \(lesson.kept[worst.drawing] + 1) scores \(fixedDecimals(worst.rival, 2)) against '\(neighbour.rule)', \(fixedDecimals(worst.own, 2)) against the other examples"
                : "template \(worst.drawing + 1) of '\(neighbour.rule)' scores \(fixedDecimals(worst.rival, 2)) against '\(lesson.name)', \(fixedDecimals(worst.own, 2)) against its other templates"
            printError("touchgest: warning: '\(lesson.name)' and rule '\(neighbour.rule)' would be confused: \(neighbour.confusions.count) of their \(neighbour.drawings) drawings come closer to the other shape than to their own (\(which)); draw a more different shape")
        }
        if let closest = lesson.neighbours.first, !closest.isTooAlike {
            printError("the closest stroke rule on \(lesson.fingers) finger\(lesson.fingers == 1 ? "" : "s") is '\(closest.rule)', at \(fixedDecimals(closest.score, 2))")
        }
    }
}

/// Says which devices a live `learn` reads, on standard error (standard output is the rule).
final class LearnObserver: GesturePipelineObserver {
    func adapter(_ event: AdapterEvent) {
        if case let .deviceAdded(device) = event { printError("device added: \(device)") }
    }

    var wantsTransitions: Bool { false }
    func transition(_ record: TransitionRecord) {}
    func command(_ request: CommandRequest) {}
}
