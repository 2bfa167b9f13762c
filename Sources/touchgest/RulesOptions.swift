import ArgumentParser
import Glibc

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

func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}
