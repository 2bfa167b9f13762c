import ArgumentParser
import Glibc

/// The root guard of every subcommand that runs the rules' commands (`run`, and `debug`
/// and `replay` with `--run`): as root, each command in the rule file would run as
/// root, so touchgest refuses unless `--allow-root` says that is meant.
struct RootOptions: ParsableArguments {
    @Flag(help: "Run even as root (commands then run as root too).")
    var allowRoot = false

    /// Throws when commands would run as root and `--allow-root` was not given.
    func check(runsCommands: Bool) throws {
        if runsCommands && getuid() == 0 && !allowRoot {
            throw ValidationError("""
                refusing to run as root: every command in the rule file would run as root. \
                Run touchgest as your own user (with touchgest's udev rule or in the 'input' group, see the README), \
                or pass --allow-root if you mean it.
                """)
        }
    }
}
