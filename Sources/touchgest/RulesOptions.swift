import ArgumentParser
import Glibc
import TouchgestDaemon

/// Where the rule file is: `--rules PATH`, else the XDG config folder.
struct RulesOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The rule file.", valueName: "path"))
    var rules: String?

    /// `--rules`, else `$XDG_CONFIG_HOME/touchgest/rules.toml`, else `~/.config/touchgest/rules.toml`.
    var path: String {
        if let rules { return rules }
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return "\(config)/touchgest/rules.toml"
        }
        return "\(environment("HOME") ?? "")/.config/touchgest/rules.toml"
    }
}

/// Where the daemon serves gesture events: `--events-socket PATH`, else
/// `$XDG_RUNTIME_DIR/touchgest/events.sock`.
struct EventsSocketOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The socket touchgest events connects to (default: $XDG_RUNTIME_DIR/touchgest/events.sock).",
                                            valueName: "path"))
    var eventsSocket: String?

    /// Nil when neither the option nor `XDG_RUNTIME_DIR` gives a place.
    var path: String? {
        if let eventsSocket { return eventsSocket }
        return environment("XDG_RUNTIME_DIR").flatMap { Daemon.defaultEventsSocket(runtimeDirectory: $0) }
    }
}

func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
