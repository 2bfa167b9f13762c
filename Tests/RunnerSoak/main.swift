// Runs 1,000 commands through CommandRunner in a process of its own and reports the open
// descriptors before and after and the zombie children left. A process of its own,
// because swift test runs every suite in one process and others open descriptors and
// spawn children meanwhile. Used by CommandRunnerTests.
import CommandRunner
import Glibc

func openDescriptorCount() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while readdir(directory) != nil { count += 1 }
    return count
}

func zombieChildren() -> Int {
    guard let directory = opendir("/proc") else { return -1 }
    defer { closedir(directory) }
    var zombies = 0
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let pid = Int32(name), let file = fopen("/proc/\(pid)/stat", "r") else { continue }
        var buffer = [CChar](repeating: 0, count: 1024)
        let line = fgets(&buffer, 1024, file) != nil ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : ""
        fclose(file)
        guard let close = line.lastIndex(of: ")") else { continue }
        let fields = line[line.index(close, offsetBy: 2)...].split(separator: " ")
        if fields.count > 1, fields[0] == "Z", Int32(fields[1]) == getpid() { zombies += 1 }
    }
    return zombies
}

let runner = CommandRunner()
let before = openDescriptorCount()
var finished = 0
runner.observer = { if case .finished = $0 { finished += 1 } }
for batch in 0..<20 {
    for index in 0..<50 {
        runner.run(.init(key: "r\(batch)-\(index)", command: index % 2 == 0 ? "true" : "echo x >&2; exit 1"))
    }
    runner.waitUntilIdle(timeout: .seconds(30))
}
// A command's pipe can outlive it for a moment: the next command's child holds a copy
// until its exec has closed it, and the kernel wakes the parent before that. The runner
// reads such a pipe to its end; wait for those ends (bounded only to fail, not to pass).
var rounds = 0
while runner.leftoverCount > 0 && rounds < 1_000 {
    rounds += 1
    var fds = runner.pollDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    if poll(&fds, nfds_t(fds.count), 100) > 0 {
        for entry in fds where entry.revents != 0 { runner.handleReadable(entry.fd) }
    }
}
print("finished \(finished) descriptors \(before) \(openDescriptorCount()) zombies \(zombieChildren())")
