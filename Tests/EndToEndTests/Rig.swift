import CommandRunner
import Glibc
import TestSupport
import Testing

let touchgestBinary = builtExecutable("touchgest")

let recordings = "\(packageRoot)/Tests/EndToEndTests/Fixtures/recordings"

/// One run of `touchgest ARGS` on emulated devices through the real libinput.
struct RigRun {
    var status: Int32
    var lines: [String]
    var stderr: String
    /// The run's folder: rules, script, and whatever its commands wrote.
    var folder = ""

    /// Recognizer decisions, `RULE FROM -> TO`, without `changed`, `failed` and resets.
    var decisions: [String] {
        lines.compactMap { line in
            let words = line.split(separator: " ")
            guard words.count >= 4, words[2] == "->",
                  ["began", "recognized", "ended", "cancelled"].contains(words[3]) else { return nil }
            return words[0..<4].joined(separator: " ")
        }
    }

    /// Every transition line, `RULE FROM -> TO`.
    var transitions: [String] {
        lines.compactMap { line in
            let words = line.split(separator: " ")
            guard words.count >= 4, words[2] == "->" else { return nil }
            return words[0..<4].joined(separator: " ")
        }
    }

    /// What `debug` says each command would run for: `RULE PHASE [STEP] [DIRECTION]`.
    var commands: [String] {
        lines.compactMap { line in
            guard line.hasPrefix("  would run ["), let close = line.firstIndex(of: "]") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 13)..<close])
        }
    }

    /// Whether the rig had to complete a partial read (docs/libinput-facts.md).
    var repairedReads: Bool { stderr.contains("repaired") }
}

/// A failure shows what touchgest printed and what the rig said: which `await` ran out,
/// and what a `shell` step complained of.
extension RigRun: CustomStringConvertible {
    var description: String {
        "\(lines)" + (stderr.isEmpty ? "" : "\nthe rig's standard error:\n\(stderr)")
    }
}

/// Runs `touchgest debug` (or `program`) with `rules` on `devices`, playing `script`.
///
/// About 1 run in 150 under heavy load loses its stream at a repaired partial read
/// (shared/TESTING.md, pitfall 11). When `accept` rejects a run that needed a repair,
/// it is run once more, and the retry is reported; a run that fails without one fails.
///
/// `$FOLDER` in the rules, the script, `arguments`, `extra` and `files` stands for the run's own folder, which
/// holds `rules.toml`, `script.txt` and `files`.
///
/// Without `passRules`, touchgest gets no `--rules` and `XDG_CONFIG_HOME` is `$FOLDER/config`.
/// A name in `files` may hold folders (`config/touchgest/rules.toml`); they are made private.
/// `wrapper` is a command that starts touchgest: it gets touchgest's path and arguments.
func rig(devices: [String], rules: String, script: String, arguments: String = "debug",
         extra: String = "", files: [String: String] = [:], passRules: Bool = true, wrapper: String = "",
         accept: (RigRun) -> Bool = { _ in true }) -> RigRun {
    let first = rigOnce(devices: devices, rules: rules, script: script, arguments: arguments, extra: extra,
                        files: files, passRules: passRules, wrapper: wrapper)
    guard !accept(first), first.repairedReads else { return first }
    print("touchgest e2e: a run needed a repaired read and did not match; running it once more")
    return rigOnce(devices: devices, rules: rules, script: script, arguments: arguments, extra: extra,
                   files: files, passRules: passRules, wrapper: wrapper)
}

private func rigOnce(devices: [String], rules: String, script: String, arguments: String, extra: String,
                     files: [String: String], passRules: Bool, wrapper: String) -> RigRun {
    // The helpers above read debug's every-transition view (-v); JSON is complete anyway.
    let arguments = arguments == "debug" || arguments.hasPrefix("debug ") ? "debug -v" + arguments.dropFirst(5) : arguments
    let folder = temporaryFolder()
    chmod(folder, 0o700)
    func local(_ text: String) -> String { text.replacing("$FOLDER", with: folder) }
    writeText("\(folder)/rules.toml", local(rules))
    writeText("\(folder)/script.txt", local(script))
    for (name, text) in files {
        var inner = folder
        for part in name.split(separator: "/").dropLast() {
            inner += "/\(part)"
            mkdir(inner, 0o700)
        }
        writeText("\(folder)/\(name)", local(text))
    }
    let unshare = getuid() == 0 ? "unshare -m --propagation private" : "unshare -rm --propagation private"
    let deviceArguments = devices.map { "--device \($0)" }.joined(separator: " ")
    let command = "\(unshare) /usr/bin/python3 '\(packageRoot)/rig/touchrig.py' \(deviceArguments) \(local(extra)) "
        + "--script \(folder)/script.txt -- " + (passRules ? "" : "env XDG_CONFIG_HOME=\(folder)/config ")
        + "\(wrapper) '\(touchgestBinary)' \(local(arguments))"
        + (arguments.hasPrefix("record") || !passRules ? " " : " --rules \(folder)/rules.toml ")
        + "> \(folder)/rig.out 2> \(folder)/rig.err"
    let runner = CommandRunner()
    var status: Int32 = -1
    runner.observer = { event in
        if case let .finished(_, _, result, _) = event, case let .exited(code) = result { status = code }
    }
    runner.run(.init(key: "rig", command: command, timeout: .seconds(120)))
    runner.waitUntilIdle(timeout: .seconds(150))
    let out = readText("\(folder)/rig.out")
    return RigRun(status: status, lines: out.split(separator: "\n").map(String.init), stderr: readText("\(folder)/rig.err"),
                  folder: folder)
}

/// Runs a shell command to its end and returns its standard output.
func shellOutput(_ command: String) -> String {
    let folder = temporaryFolder()
    let runner = CommandRunner()
    runner.run(.init(key: "shell", command: "{ \(command)\n} > \(folder)/out", timeout: .seconds(60)))
    runner.waitUntilIdle(timeout: .seconds(90))
    return readText("\(folder)/out")
}

/// Runs `touchgest ARGUMENTS` directly (no rig) and returns its standard output and error.
func touchgestOutput(_ arguments: String) -> String {
    shellOutput("'\(touchgestBinary)' \(arguments) 2>&1")
}

/// Starts a desktop with a rig script (rig/headless-sway, rig/headless-x11) that prints,
/// last, where the desktop is (a socket or a display); the test stops with the script's
/// own complaint when it did not start. Register the desktop's stop before calling this:
/// a start that fails part way leaves something to stop.
func startDesktop(_ command: String) throws -> String {
    let folder = temporaryFolder()
    let runner = CommandRunner()
    runner.run(.init(key: "shell", command: "\(command) > \(folder)/out 2> \(folder)/err", timeout: .seconds(180)))
    runner.waitUntilIdle(timeout: .seconds(200))
    let place = readText("\(folder)/out").split(separator: "\n").last.map(String.init) ?? ""
    try #require(!place.isEmpty, "\(command) did not start: \(readText("\(folder)/err"))")
    return place
}
