import Glibc
import PollLoop
import TestSupport
import Testing
@testable import FocusProviders

/// Protocol tests: the i3/sway IPC wire format (i3's documented IPC, as sway 1.7 speaks
/// it) against a local server. The real sway is in the end-to-end tests.
@Suite struct I3IPCProtocolTests {
    static func frame(_ type: UInt32, _ json: String) -> [UInt8] {
        let payload = Array(json.utf8)
        return Array("i3-ipc".utf8) + withUnsafeBytes(of: UInt32(payload.count)) { Array($0) }
            + withUnsafeBytes(of: type) { Array($0) } + payload
    }

    static let tree = #"""
        {"id":1,"type":"root","focused":false,"nodes":[{"id":2,"type":"output","nodes":[{"id":3,"type":"workspace","focused":false,
        "nodes":[{"id":4,"type":"con","focused":false,"app_id":"foot","name":"~"},
                 {"id":5,"type":"con","focused":true,"app_id":null,"name":"Debian \u2014 Firefox","window_properties":{"class":"firefox-esr"}}],
        "floating_nodes":[]}]}]}
        """#

    @Test func theHelloSubscribesToWindowAndWorkspaceEventsThenAsksForTheTree() throws {
        let wire = I3IPCWire(.sway, environment: ["SWAYSOCK": "/run/sway.sock"])
        let endpoints = try wire.endpoints()
        #expect(endpoints == [FocusEndpoint(path: "/run/sway.sock", hello:
            Self.frame(2, #"["window","workspace"]"#) + Self.frame(4, ""))])
    }

    @Test func theTreeGivesTheFocusAtStartAndEventsTheChanges() throws {
        let wire = I3IPCWire(.sway, environment: [:])
        var bytes = Self.frame(2, #"{"success":true}"#) + Self.frame(4, Self.tree)
        // Split mid-header: the wire must wait for the rest.
        let first = try wire.receive(Array(bytes[0..<20]), from: 0)
        #expect(first.focus == nil)
        let rest = try wire.receive(Array(bytes[20...]), from: 0)
        #expect(rest.focus == .window(appID: "firefox-esr", title: "Debian — Firefox"))
        bytes = Self.frame(0x8000_0003, #"{"change":"focus","container":{"id":4,"type":"con","focused":true,"app_id":"foot","name":"~"}}"#)
        #expect(try wire.receive(bytes, from: 0).focus == .window(appID: "foot", title: "~"))
        bytes = Self.frame(0x8000_0003, #"{"change":"title","container":{"id":4,"focused":true,"app_id":"foot","name":"vim"}}"#)
        #expect(try wire.receive(bytes, from: 0).focus == .window(appID: "foot", title: "vim"))
        // Another window's title is not the focus.
        bytes = Self.frame(0x8000_0003, #"{"change":"title","container":{"id":5,"focused":false,"app_id":null,"name":"x"}}"#)
        #expect(try wire.receive(bytes, from: 0).focus == nil)
        // The focused window closes: ask for the tree again.
        bytes = Self.frame(0x8000_0003, #"{"change":"close","container":{"id":4,"focused":false,"app_id":"foot","name":"vim"}}"#)
        #expect(try wire.receive(bytes, from: 0).send == Self.frame(4, ""))
        // A workspace with nothing on it has the focus.
        bytes = Self.frame(4, #"{"id":1,"type":"root","nodes":[{"id":3,"type":"workspace","focused":true,"nodes":[]}]}"#)
        #expect(try wire.receive(bytes, from: 0).focus == .noWindow)
        bytes = Self.frame(0x8000_0000, #"{"change":"focus","current":{"id":9}}"#)
        #expect(try wire.receive(bytes, from: 0).send == Self.frame(4, ""))
    }

    @Test func bytesThatAreNotTheIPCAreAnError() {
        let wire = I3IPCWire(.i3, environment: [:])
        #expect(throws: FocusWireError("a message without the i3-ipc magic")) {
            try wire.receive(Array("HTTP/1.1 200 OK\r\n".utf8), from: 0)
        }
        #expect(throws: FocusWireError("the subscription was refused")) {
            try I3IPCWire(.i3, environment: [:]).receive(Self.frame(2, #"{"success":false}"#), from: 0)
        }
    }

    @Test func aProviderFollowsTheServerAndReconnectsWhenItComesBack() throws {
        let folder = temporaryFolder()
        let path = "\(folder)/sway-ipc.sock"
        let server = LocalServer(path: path)
        let rig = ProviderRig(SocketFocusProvider(wire: I3IPCWire(.sway, environment: ["SWAYSOCK": path])))
        let peer = try #require(server.accept())
        #expect(peer.receive(atLeast: 14 + 22 + 14) == Self.frame(2, #"["window","workspace"]"#) + Self.frame(4, ""))
        peer.send(Self.frame(2, #"{"success":true}"#) + Self.frame(4, Self.tree))
        rig.run(untilReports: 2)
        peer.send(Self.frame(0x8000_0003, #"{"change":"focus","container":{"id":4,"focused":true,"app_id":"foot","name":"~"}}"#))
        rig.run(untilReports: 3)
        // sway goes away, and comes back at the same path.
        peer.hangUp()
        server.stop()
        rig.run(untilReports: 4)
        server.listen()
        // The provider tries again on its own timer; the connection waits in the backlog.
        rig.run(untilReports: 5)
        let again = try #require(server.accept())
        _ = again.receive(atLeast: 50)
        again.send(Self.frame(2, #"{"success":true}"#) + Self.frame(4, Self.tree))
        rig.run(untilReports: 6)
        #expect(rig.reports == [
            .connected("sway at \(path)"),
            .focused(.window(appID: "firefox-esr", title: "Debian — Firefox")),
            .focused(.window(appID: "foot", title: "~")),
            .lost("sway closed the connection; trying again"),
            .connected("sway at \(path)"),
            .focused(.window(appID: "firefox-esr", title: "Debian — Firefox")),
        ])
        // The new connection (heard above through the rig's loop) is read steadily: no
        // poll entry to take the loop off its epoll set.
        var interest = PollInterest()
        rig.provider.collect(&interest)
        #expect(interest.entries.map(\.fd) == [])
        #expect(interest.steady.count == 1)
    }

    @Test func withNoSocketTheProviderSaysWhyOnceAndWaits() {
        let rig = ProviderRig(SocketFocusProvider(wire: I3IPCWire(.i3, environment: ["I3SOCK": "/nonexistent/i3.sock"])))
        #expect(rig.reports == [.lost("cannot reach i3 at /nonexistent/i3.sock: No such file or directory")])
        #expect(rig.provider.nextDeadline != nil)
        #expect(rig.provider.pollDescriptors.isEmpty)
    }
}
