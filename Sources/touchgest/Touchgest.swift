import ArgumentParser

@main
struct Touchgest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchgest",
        abstract: "Turn touchpad and touchscreen gestures into desktop actions, keys, text, clicks and commands.",
        discussion: """
            Rules live in $XDG_CONFIG_HOME/touchgest/rules.toml (see touchgest-rules(5)).
            """,
        version: "0.1.0",
        subcommands: [RunCommand.self, EventsCommand.self, DebugCommand.self, CheckCommand.self, RecordCommand.self, ReplayCommand.self, LearnCommand.self,
                      ListDevicesCommand.self, InitCommand.self, DoctorCommand.self]
    )
}
