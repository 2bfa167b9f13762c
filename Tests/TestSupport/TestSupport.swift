// Files, folders and binaries for the tests that work with real files and processes.
import Glibc

/// The package's root folder, found from this file's path.
public let packageRoot: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path
}()

/// An executable built beside the test bundle, e.g. `touchgest` or `RunnerSoak`.
public func builtExecutable(_ name: String) -> String {
    let bundle = CommandLine.arguments[0]
    var folder = String(bundle[..<(bundle.lastIndex(of: "/") ?? bundle.startIndex)])
    while folder.contains(".xctest") { folder = String(folder[..<folder.lastIndex(of: "/")!]) }
    return access("\(folder)/\(name)", X_OK) == 0 ? "\(folder)/\(name)" : "\(packageRoot)/.build/debug/\(name)"
}

/// A new private folder under /tmp.
public func temporaryFolder() -> String {
    var template = Array("/tmp/touchgest-test-XXXXXX".utf8CString)
    let folder = String(cString: mkdtemp(&template))
    chmod(folder, 0o700)
    return folder
}

/// The file's text, or nil when it cannot be read.
public func readFile(_ path: String) -> String? {
    readBytes(path).map { String(decoding: $0, as: UTF8.self) }
}

/// The file's text, or "" when it cannot be read.
public func readText(_ path: String) -> String {
    readFile(path) ?? ""
}

/// Writes `text` to `path` with `mode` (private by default, as rule files must be).
public func writeText(_ path: String, _ text: String, mode: mode_t = 0o600) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
    chmod(path, mode)
}

/// The names in a folder, sorted.
public func listFolder(_ folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
    }
    return names.sorted()
}

/// The file's bytes as they are, or nil when it cannot be read.
public func readBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return bytes
}

/// What a peer sent on socket `fd`, read until `count` bytes came, waiting up to a second
/// for each read (a test's stand-in server reading what touchgest wrote).
public func receiveBytes(from fd: Int32, atLeast count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while bytes.count < count {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 1_000) == 1 else { break }
        let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard got > 0 else { break }
        bytes += buffer[0..<got]
    }
    return bytes
}

/// A unix stream socket listening at `path` (a file there before is removed), for a test's
/// stand-in server; its descriptor.
public func listeningSocket(at path: String, backlog: Int32 = 8) -> Int32 {
    unlink(path)
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    listen(listener, backlog)
    return listener
}
