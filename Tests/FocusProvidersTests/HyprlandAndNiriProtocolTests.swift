import CProcess
import Glibc
import TestSupport
import Testing
import TouchGestures
@testable import FocusProviders
@testable import TextWire

/// Protocol tests: Hyprland's event and request sockets, as its wiki documents them,
/// against local servers. Hyprland itself cannot run here.
@Suite struct HyprlandProtocolTests {
    /// A new runtime folder holding Hyprland's folder for `signature`, and the
    /// environment that names both.
    static func hyprlandFolder(_ signature: String) -> (folder: String, environment: [String: String]) {
        let runtime = temporaryFolder()
        let folder = "\(runtime)/hypr/\(signature)"
        mkdir("\(runtime)/hypr", 0o700)
        mkdir(folder, 0o700)
        return (folder, ["HYPRLAND_INSTANCE_SIGNATURE": signature, "XDG_RUNTIME_DIR": runtime])
    }

    @Test func theRequestGivesTheFocusAtStartAndActiveWindowLinesTheChanges() throws {
        let (folder, environment) = Self.hyprlandFolder("abc123")
        let events = LocalServer(path: "\(folder)/.socket2.sock")
        let requests = LocalServer(path: "\(folder)/.socket.sock")
        let rig = ProviderRig(SocketFocusProvider(wire: HyprlandWire(environment: environment)))
        let eventPeer = try #require(events.accept())
        let requestPeer = try #require(requests.accept())
        #expect(requestPeer.receive(atLeast: 14) == Array("j/activewindow".utf8))
        requestPeer.send(#"{"address":"0x55d0","class":"kitty","title":"~/src","pid":4242}"#)
        requestPeer.hangUp()
        rig.run(untilReports: 2)
        // Other events are ignored; a title with commas keeps them; an empty pair is no window.
        eventPeer.send("workspace>>2\nactivewindowv2>>55d1\nactivewindow>>firefox,Inbox, 3 unread — Mozilla Firefox\n")
        rig.run(untilReports: 3)
        eventPeer.send("activewindow>>,\n")
        rig.run(untilReports: 4)
        #expect(rig.reports == [
            .connected("hyprland at \(folder)/.socket2.sock"),
            .focused(.window(appID: "kitty", title: "~/src")),
            .focused(.window(appID: "firefox", title: "Inbox, 3 unread — Mozilla Firefox")),
            .focused(.noWindow),
        ])
    }

    /// The request's answer is parsed when its socket closes: the heap is trimmed then,
    /// not while the answer is half-read (see HostilePeerTests for the event stream).
    @Test func aLongAnswerIsTrimmedAfterItsParse() throws {
        let (folder, environment) = Self.hyprlandFolder("long")
        let events = LocalServer(path: "\(folder)/.socket2.sock")
        let requests = LocalServer(path: "\(folder)/.socket.sock")
        let trims = TrimLog()
        let rig = ProviderRig(SocketFocusProvider(wire: HyprlandWire(environment: environment), trim: trims.trim))
        trims.rig = rig
        let eventPeer = try #require(events.accept())
        let requestPeer = try #require(requests.accept())
        _ = requestPeer.receive(atLeast: 14)
        let answer = Array((#"{"class":"kitty","title":""# + String(repeating: "t", count: 300_000) + #""}"#).utf8)
        try rig.feed(answer[...], through: requestPeer, piece: 100_000)
        #expect(trims.reportsAtTrim == [], "trimmed while the answer was half-read")
        requestPeer.hangUp()
        rig.run(untilReports: 2)
        #expect(rig.reports.last == .focused(.window(appID: "kitty", title: String(repeating: "t", count: maximumOutsideTextBytes))))
        #expect(trims.reportsAtTrim == [2], "trims, by the reports made before each")
        // The event socket open to the end: closed, it would be the desktop lost.
        withExtendedLifetime(eventPeer) {}
    }

    @Test func anEventBeforeTheAnswerWins() throws {
        let wire = HyprlandWire(environment: [:])
        #expect(try wire.receive(Array("activewindow>>foot,~\n".utf8), from: 0).focus == .window(appID: "foot", title: "~"))
        _ = try wire.receive(Array(#"{"class":"kitty","title":"old"}"#.utf8), from: 1)
        #expect(try wire.finished(1).focus == nil)
        wire.reset()
        _ = try wire.receive(Array("{}".utf8), from: 1)
        #expect(try wire.finished(1).focus == .noWindow)
    }

    /// A request socket that listens but never accepts: its queue fills, and a blocking
    /// connect to it would wait for ever, with the loop and SIGTERM behind it.
    @Test func aRequestSocketThatNeverAcceptsCannotHoldTheProvider() throws {
        let (folder, environment) = Self.hyprlandFolder("stuck")
        let events = LocalServer(path: "\(folder)/.socket2.sock")
        let requestPath = "\(folder)/.socket.sock"
        let listener = cprocess_unix_listen(requestPath, 0)
        #expect(listener >= 0)
        defer { close(listener) }
        // A backlog of 0 holds one connection that nobody accepts: now it is full.
        let waiting = cprocess_unix_connect_nonblocking(requestPath)
        #expect(waiting >= 0)
        defer { close(waiting) }
        let rig = ProviderRig(SocketFocusProvider(wire: HyprlandWire(environment: environment)))
        // start() has returned: it did not wait. It says why once and tries again later.
        #expect(rig.reports == [.lost("cannot reach hyprland at \(requestPath): it takes no connection or data now (its queue is full: is the desktop stuck?)")])
        #expect(rig.provider.nextDeadline != nil)
        _ = events
    }

    @Test func withoutTheSignatureItSaysSo() {
        #expect(throws: FocusWireError("$HYPRLAND_INSTANCE_SIGNATURE is not set")) { try HyprlandWire(environment: [:]).endpoints() }
    }
}

/// Protocol tests: niri's `$NIRI_SOCKET` event stream (niri-ipc's `Request::EventStream`
/// and `Event`, serde's externally tagged JSON, one per line) against a local server.
@Suite struct NiriProtocolTests {
    @Test func theStreamGivesTheWholeStateThenChanges() throws {
        let path = "\(temporaryFolder())/niri.sock"
        let server = LocalServer(path: path)
        let rig = ProviderRig(SocketFocusProvider(wire: NiriWire(environment: ["NIRI_SOCKET": path])))
        let peer = try #require(server.accept())
        #expect(peer.receive(atLeast: 14) == Array("\"EventStream\"\n".utf8))
        peer.send("""
            {"Ok":"Handled"}
            {"WorkspacesChanged":{"workspaces":[]}}
            {"WindowsChanged":{"windows":[{"id":1,"title":"~","app_id":"Alacritty","pid":10,"workspace_id":1,"is_focused":false},{"id":2,"title":"Docs","app_id":"org.gnome.Evince","pid":11,"workspace_id":1,"is_focused":true}]}}

            """)
        rig.run(untilReports: 2)
        // One event at a time: events read together report only the focus they end on.
        let events = [
            #"{"WindowFocusChanged":{"id":1}}"#,
            #"{"WindowOpenedOrChanged":{"window":{"id":1,"title":"htop","app_id":"Alacritty","is_focused":true}}}"#,
            #"{"WindowClosed":{"id":1}}"#,
            #"{"WindowOpenedOrChanged":{"window":{"id":3,"title":null,"app_id":null,"is_focused":true}}}"#,
            #"{"WindowFocusChanged":{"id":null}}"#,
        ]
        for (index, event) in events.enumerated() {
            peer.send(event + "\n")
            rig.run(untilReports: 3 + index)
        }
        #expect(rig.reports == [
            .connected("niri at \(path)"),
            .focused(.window(appID: "org.gnome.Evince", title: "Docs")),
            .focused(.window(appID: "Alacritty", title: "~")),
            .focused(.window(appID: "Alacritty", title: "htop")),
            .focused(.noWindow),
            .focused(.window(appID: "", title: "")),
            .focused(.noWindow),
        ])
    }

    @Test func aRefusedStreamIsAnErrorAndTheProviderTriesAgain() throws {
        let path = "\(temporaryFolder())/niri.sock"
        let server = LocalServer(path: path)
        let rig = ProviderRig(SocketFocusProvider(wire: NiriWire(environment: ["NIRI_SOCKET": path])))
        let peer = try #require(server.accept())
        peer.send("{\"Err\":\"unknown request\"}\n")
        rig.run(untilReports: 2)
        rig.run(until: try #require(rig.provider.nextDeadline))
        let again = try #require(server.accept())
        #expect(again.receive(atLeast: 14) == Array("\"EventStream\"\n".utf8))
        // Connected again, which is said with the first focus: a desktop that takes the
        // connection and refuses again has not ended the outage.
        again.send("{\"Ok\":\"Handled\"}\n{\"WindowsChanged\":{\"windows\":[]}}\n")
        rig.run(untilReports: 4)
        #expect(rig.reports == [
            .connected("niri at \(path)"),
            .lost("niri sent what touchgest cannot read: the event stream was refused: unknown request; trying again"),
            .connected("niri at \(path)"),
            .focused(.noWindow),
        ])
    }
}

@Suite struct JSONValueTests {
    @Test func readsWhatTheDesktopsSend() throws {
        let value = try JSONValue.parse(Array(#" {"a":[1,-2.5e3,true,false,null],"s":"\"\\\/\n\u00e9\ud83d\ude00"} "#.utf8))
        #expect(value["a"] == .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(value["s"]?.string == "\"\\/\né😀")
    }

    @Test func refusesBrokenTextWithWhereItBroke() {
        #expect(throws: JSONError(message: "expected ',' or '}'", offset: 7)) { try JSONValue.parse(Array(#"{"a":1 "b":2}"#.utf8)) }
        #expect(throws: JSONError(message: "nested deeper than 128", offset: 128)) {
            try JSONValue.parse(Array(String(repeating: "[", count: 200).utf8))
        }
    }
}
