import Rulebook
import TextWire
import TouchgestDaemon

/// What `touchgest debug` and `replay` show of the keys, text and clicks rules press.
extension DebugPrinter {
    /// `would press: ctrl+shift+v`, `types: "hi"`, `would click: middle`,
    /// `would invoke shortcut: Overview`, `would do: workspace-next`.
    func said(_ action: InputAction) -> String {
        let pressed = pressesInput
        switch action {
        case let .keys(chords): return "\(pressed ? "presses" : "would press"): \(chords.map(\.description).joined(separator: " "))"
        case let .text(text): return "\(pressed ? "types" : "would type"): \"\(text)\"".escapingControlCharacters
        case let .button(button): return "\(pressed ? "clicks" : "would click"): \(button.rawValue)"
        case let .shortcut(name): return "\(pressed ? "invokes" : "would invoke") shortcut: \(name)".escapingControlCharacters
        case let .desktop(action): return "\(pressed ? "does" : "would do"): \(action)"
        }
    }

    func press(_ request: InputRequest) {
        if catalogue { return }
        if json {
            var line = JSONLine("press")
            line.add("rule", request.rule)
            line.add("phase", request.phase.rawValue)
            switch request.action {
            case let .keys(chords): line.add("keys", chords.map(\.description).joined(separator: " "))
            case let .text(text): line.add("text", text)
            case let .button(button): line.add("button", button.rawValue)
            case let .shortcut(name): line.add("shortcut", name)
            case let .desktop(action): line.add("action", action.rawValue)
            }
            line.add("pressed", pressesInput)
            emit(line.text)
        } else if verbose {
            emit(paint(33, "  \(said(request.action)) [\(request.rule) \(request.phase.rawValue)]"))
        } else if request.phase == .step {
            // A step is no decision, so no decision's line says it.
            emit(paint(33, "\(request.rule) step -> \(said(request.action))"))
        }
        // Without -v a decision's own line says what it presses (``effects``).
    }

    /// The progress a `follow` rule hands the desktop: `  moves workspaces: update 0.420
    /// [swipe-ws]` (`would move` where nothing reaches the desktop); each update only with
    /// -v, the begin and the end always.
    func follow(_ request: FollowRequest) {
        if catalogue { return }
        let step = request.step
        if json {
            var line = JSONLine("follow")
            line.add("rule", request.rule)
            line.add("animation", step.animation.rawValue)
            line.add("phase", step.phase.rawValue)
            line.add("progress", rounded: step.progress)
            line.add("handed", pressesInput)
            emit(line.text)
        } else if verbose || step.phase != .update {
            emit(paint(33, "  \(pressesInput ? "moves" : "would move") \(step) [\(request.rule)]"))
        }
    }

    func inputChannel(_ report: InputChannelReport) {
        if json {
            var line = JSONLine("input-channel")
            switch report {
            case let .connected(text): line.add("connected", text)
            case let .lost(why): line.add("lost", why)
            case let .cannotPress(why): line.add("cannot-press", why)
            }
            emit(line.text)
            return
        }
        emit(report.description.escapingControlCharacters)
    }
}
