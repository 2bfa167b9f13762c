import Testing
@testable import CommandRunner

/// Which command lines skip the shell, and the words they become: exactly what
/// `sh -c` would pass to the program, or `nil` where only a shell can say.
@Suite struct DirectCommandTests {
    @Test(arguments: [
        ("notify-send hi", ["notify-send", "hi"]),
        ("  swaymsg   workspace\tnext  ", ["swaymsg", "workspace", "next"]),
        ("xdotool key ctrl+alt+Right", ["xdotool", "key", "ctrl+alt+Right"]),
        ("/usr/bin/env VAR=1 prog", ["/usr/bin/env", "VAR=1", "prog"]),
        ("brightnessctl set 5%-", ["brightnessctl", "set", "5%-"]),
        ("notify-send 'two words' \"and more\"", ["notify-send", "two words", "and more"]),
        ("sh -c 'echo $HOME; ls *' x", ["sh", "-c", "echo $HOME; ls *", "x"]),
        ("prog '' after", ["prog", "", "after"]),
        ("prog a'b'\"c\"d", ["prog", "abcd"]),
        ("notify-send 'é ü ✓'", ["notify-send", "é ü ✓"]),
        ("hyprctl dispatch workspace e+1", ["hyprctl", "dispatch", "workspace", "e+1"]),
    ])
    func plainCommandsSplitAsTheShellWould(command: String, words: [String]) {
        #expect(DirectCommand(command)?.arguments == words)
    }

    @Test(arguments: [
        "", "   ", "''",
        // expansions and substitutions
        "notify-send $HOME", "notify-send \"$HOME\"", "notify-send `date`", "notify-send \"`date`\"",
        // operators, redirections, grouping
        "a; b", "a && b", "a | b", "a & ", "a > out", "a < in", "(a)", "{ a; }", "a\nb",
        // globs, tilde, comments, history, escapes
        "ls *.toml", "ls file?", "ls [ab]", "ls ~", "prog # comment", "prog !x", "prog a\\ b",
        "prog \"a\\\"b\"",
        // unterminated quotes
        "prog 'open", "prog \"open",
        // assignments and builtins or keywords, whose behaviour is the shell's own
        "VAR=1 prog", "echo hi", "printf x", "cd /tmp", "true", "test -f x", "[ -f x ]", "exec prog",
        "kill 1", "if", "'echo' hi",
        // control characters
        "prog \u{7}", "prog\rx",
    ])
    func commandsWithShellSyntaxNeedTheShell(command: String) {
        #expect(DirectCommand(command) == nil)
    }
}
