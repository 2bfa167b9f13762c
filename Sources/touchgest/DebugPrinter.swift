import Glibc
import Rulebook
import StrokeGestures
import TextWire
import TouchGestures
import TouchgestDaemon

/// Prints what `touchgest debug` shows, as text or JSON lines.
final class DebugPrinter: GesturePipelineObserver {
    /// What the lines say, for the help of `debug` and `replay`.
    static let help = """
        Each line names a rule, what it decided and the gesture's values; a decision that
        runs a command shows the command, and one a stream gets names the stream. With -v,
        every recognizer transition: RULE FROM -> TO (CAUSE), and each move of its own phase
        machine: RULE phase OLD -> INPUT -> NEW. With --json, one object per line: the
        decisions, commands and strokes; with -v too the transitions and phase moves.
        """

    let json: Bool
    /// Replays prefix each line with the virtual time, in seconds from the recording's start.
    let clock: (() -> Timestamp)?
    let showInput: Bool
    /// Every transition, phase move and (in debug) every input event, as `-v` asks;
    /// otherwise text and JSON show only devices and decisions: what began, was
    /// recognized, stepped, ended or was cancelled, with its values. Printing every
    /// transition made `replay --json` 3.7 times as slow as `replay` (issue 40).
    let verbose: Bool
    /// The rules are the built-in catalogue: name each gesture and show its rule once.
    let catalogue: Bool
    /// Commands run and streams are fed (`--run`): lines say "runs", not "would run".
    let runsCommands: Bool
    /// Keys, text and clicks reach the desktop (`debug --run`; a replay never presses).
    let pressesInput: Bool
    /// Colour only on a terminal, and never when NO_COLOR is set (no-color.org).
    let colour = isatty(1) == 1 && getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true
    /// Each rule and its recognizer by rule name, to describe decisions.
    private var rules: [String: (rule: Rule, recognizer: GestureRecognizer)] = [:]
    /// Catalogue gestures whose rule has been shown.
    private var shownSnippets: Set<String> = []

    init(json: Bool, clock: (() -> Timestamp)? = nil, showInput: Bool = true, verbose: Bool = true, catalogue: Bool = false,
         runsCommands: Bool, pressesInput: Bool? = nil) {
        self.json = json
        self.pressesInput = pressesInput ?? runsCommands
        self.clock = clock
        self.showInput = showInput
        self.verbose = verbose
        self.catalogue = catalogue
        self.runsCommands = runsCommands
    }

    /// Tells the printer the rules in force, whose decisions it describes.
    func use(_ compiled: CompiledRulebook) {
        rules = Dictionary(zip(compiled.rulebook.rules.map(\.name), zip(compiled.rulebook.rules, compiled.recognizers).map { ($0, $1) }),
                           uniquingKeysWith: { first, _ in first })
        // After the overlay's, which hears of the strokes too.
        let before = compiled.strokeReports
        compiled.strokeReports = { [weak self] report in
            before?(report)
            self?.stroke(report)
        }
    }

    /// How a stroke matched the stroke rules, whether it fired one or not: the closest
    /// rules with their scores and thresholds, so a threshold can be tuned.
    func stroke(_ report: StrokeReport) {
        guard !json else { return emit(strokeJSON(report)) }
        emit(paint(report.fired == nil ? 36 : 32, report.summary()))
    }

    private func strokeJSON(_ report: StrokeReport) -> String {
        var line = JSONLine("stroke")
        line.add("fingers", report.fingers)
        line.add("device", report.touchType == .indirect ? "touchpad" : "touchscreen")
        line.add("length", Double(fixedDecimals(report.path.length, 1)) ?? 0)
        line.add("size", Double(fixedDecimals(report.path.size, 1)) ?? 0)
        if let fired = report.fired { line.add("fired", fired.rule) }
        line.add("matches", objects: report.entries.map { entry in
            var match = JSONLine()
            match.add("rule", entry.rule)
            if let score = entry.score { match.add("score", Double(fixedDecimals(score, 3)) ?? 0) }
            match.add("threshold", entry.threshold)
            if let template = entry.template { match.add("template", template + 1) }
            match.add("ending", entry.ending?.description ?? "stopped by another gesture")
            return match
        })
        line.add("time", Int(report.path.end.microseconds))
        return line.text
    }

    /// `text` with its control characters escaped, wrapped in an ANSI colour when colour
    /// is on: 2 dim, 32 green, 33 yellow, 36 cyan.
    func paint(_ code: Int, _ text: String) -> String {
        let text = text.escapingControlCharacters
        return colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// `1.250s ` on a replay's virtual clock (which starts at 1 s), else nothing.
    private var stamp: String {
        guard let clock else { return "" }
        let micros = Int64(clock().microseconds) - 1_000_000
        return fixedDecimals(Double(micros) / 1_000_000, 3) + "s "
    }

    /// Writes a JSON line (JSONLine escapes every control character) or a line made
    /// by `paint`.
    func emit(_ text: String) {
        writeLine(1, text.hasPrefix("{") ? text : stamp + text)
    }

    func adapter(_ event: AdapterEvent) {
        if case .input = event, !showInput || !(verbose || json) { return }
        switch event {
        case let .deviceAdded(device), let .deviceRemoved(device):
            let added = if case .deviceAdded = event { true } else { false }
            if json {
                var line = JSONLine(added ? "device-added" : "device-removed")
                describe(device, into: &line)
                emit(line.text)
            } else {
                emit(paint(36, event.line ?? ""))
                if added, let note = device.sizeNote { emit(paint(36, "  \(note)")) }
            }
        case let .input(.touches(frame)):
            for touch in frame.changedTouches {
                let phase = touch.phase.word
                if json {
                    var line = JSONLine("touch")
                    line.add("id", touch.id)
                    line.add("phase", phase)
                    line.add("x", touch.location.x)
                    line.add("y", touch.location.y)
                    line.add("time", Int(touch.timestamp.microseconds))
                    emit(line.text)
                } else {
                    emit(paint(2, "touch \(touch.id) \(phase) \(touch.location) mm"))
                }
            }
            if json {
                // The whole frame as recognizers get it: every touch down, with UIKit's phase.
                var line = JSONLine("frame")
                line.add("touches", frame.allTouches.map { "\($0.id) \($0.phase.rawValue)" })
                line.add("time", Int(frame.timestamp.microseconds))
                emit(line.text)
            }
        case let .input(.touchpad(event)):
            if json {
                var line = JSONLine("touchpad")
                line.add("gesture", event.description.prefix { $0 != " " }.description)
                line.add("fingers", event.gesture.fingers)
                line.add("text", event.description)
                line.add("time", Int(event.timestamp.microseconds))
                if let down = event.fingersDown { line.add("fingers-down", Int(down.microseconds)) }
                emit(line.text)
            } else {
                emit(paint(2, "touchpad \(event)"))
            }
        }
    }

    /// Phase moves are part of `-v`.
    var wantsPhaseMoves: Bool { verbose }

    func phaseMove(_ move: PhaseMove) {
        if json {
            var line = JSONLine("phase")
            line.add("recognizer", move.recognizer)
            line.add("from", move.from)
            line.add("input", move.input)
            line.add("to", move.to)
            line.add("time", Int(move.timestamp.microseconds))
            emit(line.text)
        } else {
            emit(paint(2, move.description))
        }
    }

    func transition(_ record: TransitionRecord) {
        let decision = self.decision(record)
        if json {
            if verbose {
                var line = JSONLine("transition")
                line.add("recognizer", record.recognizer)
                line.add("from", record.fromName)
                line.add("to", record.toName)
                line.add("cause", record.cause.description)
                line.add("time", Int(record.timestamp.microseconds))
                emit(line.text)
            }
            if let decision { emit(decisionJSON(decision, rule: record.recognizer, time: record.timestamp)) }
            return
        }
        if verbose {
            let decided = record.to == .began || record.to == .ended
            emit(decided ? paint(32, record.description) : record.description.escapingControlCharacters)
        }
        guard let decision else { return }
        if catalogue {
            guard GestureCatalogue.names(decision) else { return }
            emit(paint(32, "\(decision.name) (\(decision.device.rawValue))"))
            if shownSnippets.insert(decision.snippet.joined(separator: "\n")).inserted {
                for line in decision.snippet { emit(paint(2, "  \(line)")) }
            }
        } else if !verbose, let rule = rules[record.recognizer]?.rule, rule.command(at: decision.moment) == nil {
            // A decision that runs a command is told by the command's line.
            let effects = self.effects(command: nil, press: rule.input(at: decision.moment), stream: rule.stream)
            emit(paint(effects.isEmpty ? 32 : 33, "\(record.recognizer) \(decision.moment.rawValue): \(decision.summary)\(effects)"))
        }
    }

    /// ` -> would run: COMMAND; would stream to: STREAM` (`runs`, `streams to` with
    /// `--run`), or "" for neither.
    private func effects(command: String?, press: InputAction? = nil, stream: String?) -> String {
        let said = [
            press.map(said),
            command.map { "\(runsCommands ? "runs" : "would run"): \($0)" },
            stream.map { "\(runsCommands ? "streams" : "would stream") to: \($0)" },
        ].compactMap { $0 }
        return said.isEmpty ? "" : " -> " + said.joined(separator: "; ")
    }

    func command(_ request: CommandRequest) {
        if catalogue { return }
        if !json && !verbose {
            var moment = "\(request.phase.rawValue)"
            var summary = ""
            var stream: String?
            var press: InputAction?
            if let (rule, recognizer) = rules[request.rule] {
                press = rule.inputs[request.phase]
                let decision = request.snapshot.map { GestureDecision($0, taps: rule.taps) }
                    ?? GestureDecision(rule: rule, recognizer: recognizer, moment: request.phase.moment(continuous: rule.gesture.isContinuous))
                summary = ": " + decision.summary
                moment = decision.moment.rawValue
                // A stream gets the decisions, not the steps (its `changed` lines carry those).
                if request.phase != .step { stream = rule.stream }
            }
            if request.phase == .step, let step = request.environment["TOUCHGEST_STEP"] { moment += " \(step)" }
            emit(paint(33, "\(request.rule) \(moment)\(summary)\(effects(command: request.command, press: press, stream: stream))"))
            return
        }
        if json {
            var line = JSONLine("command")
            line.add("rule", request.rule)
            line.add("phase", request.phase.rawValue)
            line.add("command", request.command)
            line.add("run", runsCommands)
            emit(line.text)
        } else {
            var what = [request.rule, request.phase.rawValue]
            if request.phase == .step, let step = request.environment["TOUCHGEST_STEP"] { what.append(step) }
            if let direction = request.environment["TOUCHGEST_DIRECTION"] { what.append(direction) }
            emit(paint(33, "  \(runsCommands ? "runs" : "would run") [\(what.joined(separator: " "))]: \(request.command)"))
        }
    }

    /// The decision a transition reports, nil for one that decides nothing (to possible,
    /// changed or failed) or of a recognizer that is no rule's.
    private func decision(_ record: TransitionRecord) -> GestureDecision? {
        guard let (rule, recognizer) = rules[record.recognizer],
              let moment = GestureMoment(record.to, continuous: !record.isDiscrete), moment != .changed else { return nil }
        return GestureDecision(rule: rule, recognizer: recognizer, moment: moment)
    }

    private func decisionJSON(_ decision: GestureDecision, rule: String, time: Timestamp) -> String {
        var line = JSONLine("decision")
        line.add("rule", rule)
        line.add("moment", decision.moment.rawValue)
        line.add("gesture", decision.gesture.rawValue)
        line.add("device", decision.device.rawValue)
        line.add("fingers", decision.fingers)
        if let direction = decision.direction { line.add("direction", direction.rawValue) }
        if let edge = decision.edge { line.add("edge", edge) }
        line.add("name", decision.name)
        if let stream = rules[rule]?.rule.stream { line.add("stream", stream) }
        line.add("values", decision.values)
        if catalogue && GestureCatalogue.names(decision) { line.add("rule-snippet", decision.snippet) }
        line.add("time", Int(time.microseconds))
        return line.text
    }

    private func describe(_ device: InputDevice, into line: inout JSONLine) {
        line.add("node", device.node)
        line.add("kind", device.kind.rawValue)
        line.add("name", device.name)
        if let size = device.size {
            line.add("width", size.width)
            line.add("height", size.height)
        }
        if let source = device.sizeSource { line.add("size-source", source.rawValue) }
        if device.kind == .touchpad {
            line.add("gestures", device.hasGestures)
            line.add("tap-fingers", device.tapFingers)
        }
    }
}
