import ArgumentParser

/// How much `debug` and `replay` print as text.
struct OutputOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Show every recognizer transition and phase move (and, in debug, every input event), not only decisions.")
    var verbose = false
}
