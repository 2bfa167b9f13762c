import ArgumentParser
import TouchgestSetup

/// `--desktop sway`: the desktops `touchgest init` has a starter file for.
extension Desktop: ExpressibleByArgument {}
