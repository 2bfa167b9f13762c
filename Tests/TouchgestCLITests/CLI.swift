import CommandRunner
import Glibc
import TestSupport

let touchgestBinary = builtExecutable("touchgest")


struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `touchgest ARGUMENTS` through the shell with `environment` added, stopped after
/// `limit` (a hang, not a slow run: the tests run a debug build beside others).
func touchgest(_ arguments: String, environment: [String: String] = [:], prefix: String = "",
               limit: Duration = .seconds(60)) -> Result {
    run(touchgestBinary, arguments, environment: environment, prefix: prefix, limit: limit)
}

/// Runs `EXECUTABLE ARGUMENTS` through the shell with `environment` added.
func run(_ executable: String, _ arguments: String = "", environment: [String: String] = [:], prefix: String = "",
         limit: Duration = .seconds(60)) -> Result {
    let folder = temporaryFolder()
    let runner = CommandRunner()
    var status: Int32 = -1
    runner.observer = { event in
        if case let .finished(_, _, result, _) = event, case let .exited(code) = result { status = code }
    }
    runner.run(.init(key: "cli", command: "\(prefix)'\(executable)' \(arguments) > \(folder)/out 2> \(folder)/err",
                     environment: environment, timeout: limit))
    runner.waitUntilIdle(timeout: limit + .seconds(30))
    return Result(status: status, stdout: readText("\(folder)/out"), stderr: readText("\(folder)/err"))
}
