import ArgumentParser

/// Where touchgest learns that the screen is locked, the session is not in front, or the
/// machine is going to sleep.
struct SessionOptions: ParsableArguments {
    @Option(name: .customLong("session-state"), help: ArgumentHelp(
        "Where touchgest learns that the screen is locked, the session is not in front or the machine is going to sleep: auto (logind on the system bus, the screensaver on the session bus), or none (nothing: every rule acts whatever the screen shows).",
        valueName: "source"))
    var source = "auto"

    func validate() throws {
        guard source == "auto" || source == "none" else {
            throw ValidationError("unknown session-state source '\(source)'; expected auto or none")
        }
    }
}
