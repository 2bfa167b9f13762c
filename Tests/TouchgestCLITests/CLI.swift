import CommandRunner
import Glibc
import TestSupport

let touchgestBinary = builtExecutable("touchgest")


struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs `touchgest ARGUMENTS` through the shell with `environment` added.
func touchgest(_ arguments: String, environment: [String: String] = [:], prefix: String = "") -> Result {
    run(touchgestBinary, arguments, environment: environment, prefix: prefix)
}

/// Runs `EXECUTABLE ARGUMENTS` through the shell with `environment` added.
func run(_ executable: String, _ arguments: String = "", environment: [String: String] = [:], prefix: String = "") -> Result {
    let folder = temporaryFolder()
    let runner = CommandRunner()
    var status: Int32 = -1
    runner.observer = { event in
        if case let .finished(_, _, result, _) = event, case let .exited(code) = result { status = code }
    }
    runner.run(.init(key: "cli", command: "\(prefix)'\(executable)' \(arguments) > \(folder)/out 2> \(folder)/err",
                     environment: environment, timeout: .seconds(60)))
    runner.waitUntilIdle(timeout: .seconds(90))
    return Result(status: status, stdout: readText("\(folder)/out"), stderr: readText("\(folder)/err"))
}
