import CommandRunner
import Glibc

/// The package's root folder, found from this file's path.
let packageRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
}()

/// The `touchgest` binary built beside the test bundle.
let touchgestBinary: String = {
    let bundle = CommandLine.arguments[0]
    var folder = String(bundle[..<(bundle.lastIndex(of: "/") ?? bundle.startIndex)])
    while !folder.isEmpty {
        if access("\(folder)/touchgest", X_OK) == 0 { return "\(folder)/touchgest" }
        guard folder.hasSuffix(".xctest") || folder.contains(".xctest/") else { break }
        folder = String(folder[..<folder.lastIndex(of: "/")!])
    }
    return "\(packageRoot)/.build/debug/touchgest"
}()

struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
}

func temporaryFolder() -> String {
    var template = Array("/tmp/touchgest-cli-XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template))
}

func readText(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

func writeText(_ path: String, _ text: String, mode: mode_t = 0o600) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
    chmod(path, mode)
}

/// Runs `touchgest ARGUMENTS` through the shell with `environment` added.
func touchgest(_ arguments: String, environment: [String: String] = [:]) -> Result {
    let folder = temporaryFolder()
    let runner = CommandRunner()
    var status: Int32 = -1
    runner.observer = { event in
        if case let .finished(_, _, result, _) = event, case let .exited(code) = result { status = code }
    }
    runner.run(.init(key: "cli", command: "'\(touchgestBinary)' \(arguments) > \(folder)/out 2> \(folder)/err",
                     environment: environment, timeout: .seconds(60)))
    runner.waitUntilIdle(timeout: .seconds(90))
    return Result(status: status, stdout: readText("\(folder)/out"), stderr: readText("\(folder)/err"))
}
