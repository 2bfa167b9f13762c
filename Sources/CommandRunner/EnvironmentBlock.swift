import Glibc

/// An environment commands start from, as `NAME=value` C strings in name order, made
/// once: a command's environment is these, less the names its job sets, plus the job's
/// own. Rule commands and stream commands both start from one. Building all of it at
/// every start cost more than the rest of starting an on-step command
/// (scripts/measure-overhead).
public final class EnvironmentBlock {
    private let entries: [(name: String, entry: UnsafeMutablePointer<CChar>)]

    public init(_ environment: [String: String]) {
        entries = environment.sorted { $0.key < $1.key }.compactMap { name, value in
            strdup("\(name)=\(value)").map { (name, $0) }
        }
    }

    deinit {
        for (_, entry) in entries { free(entry) }
    }

    /// Calls `body` with the base entries that `overrides` does not name, then the
    /// overrides, then the terminating nil, as `envp` for execve.
    public func withEntries<Result>(adding overrides: [String: String] = [:],
                             _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        let own = overrides.map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in own { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = []
        envp.reserveCapacity(entries.count + own.count + 1)
        for (name, entry) in entries where overrides[name] == nil { envp.append(entry) }
        envp += own
        envp.append(nil)
        return body(envp)
    }
}
