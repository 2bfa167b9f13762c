import CProcess
import Glibc
@testable import GestureStreams
import TestSupport
import Testing
import TouchGestures

/// The events socket's own edges: whom a socket file left at its path belongs to.
@Suite struct SubscriberServerTests {
    @Test func aLiveDaemonWhoseBacklogIsFullIsNeitherWaitedForNorRemoved() throws {
        let path = temporaryFolder() + "/events.sock"
        // A daemon that accepts nobody (stopped, or busy), its backlog full of connections.
        let listener = cprocess_unix_listen(path, 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var queued: [Int32] = []
        defer { queued.forEach { close($0) } }
        var full = false
        for _ in 0..<64 {
            let client = cprocess_unix_connect_nonblocking(path)
            guard client >= 0 else {
                full = errno == EAGAIN
                break
            }
            queued.append(client)
        }
        try #require(full, "the backlog never filled")
        #expect(throws: StreamError(description: "another touchgest already serves events at \(path)")) {
            try StreamHub().listen(at: path)
        }
        #expect(access(path, F_OK) == 0, "the live daemon's socket was removed")
    }

    @Test func aSocketFileNobodyListensOnIsReplaced() throws {
        let path = temporaryFolder() + "/events.sock"
        // What a daemon that was killed leaves: the file of a socket nobody listens on.
        let gone = cprocess_unix_listen(path, 1)
        try #require(gone >= 0)
        close(gone)
        #expect(cprocess_unix_connect_nonblocking(path) == -1 && errno == ECONNREFUSED)
        let hub = StreamHub()
        try hub.listen(at: path)
        defer { hub.shutdown() }
        let subscriber = cprocess_unix_connect_nonblocking(path)
        #expect(subscriber >= 0, "nobody listens at \(path)")
        if subscriber >= 0 { close(subscriber) }
    }
}
