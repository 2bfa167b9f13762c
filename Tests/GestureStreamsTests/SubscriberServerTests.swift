import CommandRunner
import CProcess
import Glibc
@testable import GestureStreams
import TestSupport
import Testing
import TouchGestures

/// The events socket's own edges: whom a socket file left at its path belongs to, what
/// happens when accept fails, a subscriber that sends without end.
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

    /// One more subscriber than the cap is told why in a line and closed; those served
    /// stay, and the log says it once until one leaves (issue 23).
    @Test func aSubscriberPastTheCapIsRefusedWithALineSayingWhy() throws {
        let path = temporaryFolder() + "/events.sock"
        var events: [StreamHub.Event] = []
        let server = try SubscriberServer(path: path, maximumSubscribers: 2) { events.append($0) }
        defer { server.close() }
        var clients: [Int32] = []
        defer { clients.forEach { close($0) } }
        for _ in 0..<4 {
            let client = cprocess_unix_connect_nonblocking(path)
            try #require(client >= 0)
            clients.append(client)
        }
        server.handleReadable(polled(for: POLLIN, server.collect)[0], now: Timestamp(microseconds: 1))
        #expect(server.subscribers.count == 2)
        let refusal = #"{"v":1,"error":"touchgest run serves at most 2 subscribers at once; this one is refused"}"# + "\n"
        for client in clients[2...] {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = recv(client, &buffer, buffer.count, 0)
            #expect(count > 0 && String(decoding: buffer[..<max(count, 0)], as: UTF8.self) == refusal)
            #expect(recv(client, &buffer, buffer.count, 0) == 0, "the refused subscriber was not closed")
        }
        #expect(events.filter { if case .subscriberRefused = $0 { true } else { false } }.count == 1)
    }

    /// The session's state: every subscriber gets one line when it changes, and one that
    /// joins while the session is not unlocked gets it at once; stream commands get none.
    @Test func theSessionsStateIsToldToEverySubscriberAndToOneThatJoinsWhileLocked() throws {
        let path = temporaryFolder() + "/events.sock"
        let hub = StreamHub(baseEnvironment: [:])
        try hub.listen(at: path)
        defer { hub.shutdown() }
        func join() throws -> Int32 {
            let client = cprocess_unix_connect_nonblocking(path)
            try #require(client >= 0)
            hub.handleReadable(hub.pollDescriptors[0])
            return client
        }
        func received(_ client: Int32) -> String {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        }
        let early = try join()
        defer { close(early) }
        hub.announceSession("locked")
        let late = try join()
        defer { close(late) }
        #expect(received(early) == #"{"v":1,"session":"locked"}"# + "\n")
        #expect(received(late) == #"{"v":1,"session":"locked"}"# + "\n")
        hub.announceSession("unlocked")
        let after = try join()
        defer { close(after) }
        #expect(received(early) == #"{"v":1,"session":"unlocked"}"# + "\n")
        #expect(received(late) == #"{"v":1,"session":"unlocked"}"# + "\n")
        #expect(received(after) == "")
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

    @Test func anAcceptThatFindsNoDescriptorLeavesTheSocketUnpolledUntilTheRetryThenAcceptsAgain() throws {
        // In a process of its own: RLIMIT_NOFILE is the whole test process's.
        let folder = temporaryFolder()
        let runner = CommandRunner()
        runner.run(.init(key: "limit", command: "'\(builtExecutable("AcceptLimit"))' '\(folder)/events.sock' > '\(folder)/out' 2>&1",
                         timeout: .seconds(60)))
        #expect(runner.waitUntilIdle(timeout: .seconds(90)))
        #expect(try #require(readFile("\(folder)/out")) == """
            listening: polls the socket, wakes never, 0 subscribers
            reported acceptFailed(reason: "Too many open files", retryIn: 1.0 seconds)
            accept with no descriptor left: leaves the socket, wakes at +1.0 seconds, 0 subscribers
            just before the retry: leaves the socket, wakes at +1.0 seconds, 0 subscribers
            at the retry: polls the socket, wakes never, 0 subscribers
            reported subscriberJoined(count: 1)
            socket readable: polls the socket, wakes never, 1 subscribers

            """)
    }

    @Test func aSubscriberThatSendsWithoutEndIsReadAFewTimesPerWakeUpNotUntilItStops() throws {
        let path = temporaryFolder() + "/events.sock"
        let hub = StreamHub()
        try hub.listen(at: path)
        defer { hub.shutdown() }
        let socket = hub.pollDescriptors
        let subscriber = cprocess_unix_connect(path)
        try #require(subscriber >= 0 && socket.count == 1)
        defer { close(subscriber) }
        hub.handleReadable(socket[0])
        let accepted = try #require(hub.pollDescriptors.first { $0 != socket[0] })
        // Far more than the reads of one wake-up take, all in the socket before the hub looks.
        let sent = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1_024)
        #expect(sent.withUnsafeBytes { send(subscriber, $0.baseAddress, $0.count, 0) } == sent.count)
        hub.handleReadable(accepted)
        var left = [UInt8](repeating: 0, count: sent.count)
        let unread = recv(accepted, &left, left.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        #expect(unread == sent.count - StreamDefaults.subscriberReadsPerWake * 512)
        #expect(hub.subscriberCount == 1)
    }
}
