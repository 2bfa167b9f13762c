import Glibc
import InputActions
import TextWire

/// How one desktop takes a desktop action: on a socket of its own (sway, Hyprland, niri:
/// each action opens the socket, sends its request, reads the answer and closes it), or
/// by work that blocks in a C library (XCB), run on a thread of its own
/// (``ActionChannel``).
protocol ActionWire: Sendable {
    /// The desktop, in messages: `sway`, `hyprland`, `niri`, `x11`.
    var desktop: String { get }
    /// Where the requests go: the socket's path, the X display.
    var socketPath: String { get }
    /// How `action` is done; nil when the desktop has no such action.
    func request(for action: DesktopAction) -> ActionRequest?
    /// What the answer read so far on the socket means: nil while more must come (and
    /// the socket is open); the desktop's refusal, in its own words; or done.
    func answer(_ bytes: [UInt8], closed: Bool) -> ActionAnswer?
}

enum ActionRequest {
    /// Bytes for the desktop's socket.
    case bytes([UInt8])
    /// Work that blocks, for a thread of its own; it returns the answer.
    case work(@Sendable () -> ActionAnswer)
}

enum ActionAnswer: Equatable, Sendable {
    case done
    case refused(String)
}

extension ActionWire {
    /// One JSON object's `key` as text, for a refusal in the desktop's words.
    static func said(_ value: JSONValue?) -> String {
        value?.string ?? value.map { "\($0)" } ?? "no reason given"
    }
}

/// The i3 IPC (sway's too): `i3-ipc`, a 32-bit length and type in the host's byte order,
/// then the payload. RUN_COMMAND (type 0) runs sway's own commands (the next and previous
/// workspace on the focused output, as its own keys do) and answers an array
/// of `{"success": bool, "error": text}`. sway and i3 have one row of workspaces, no
/// overview, launcher, desktop to show, maximize or minimize.
struct I3ActionWire: ActionWire {
    let desktop: String
    let socketPath: String

    /// sway's and i3's own commands; what is not here they lack.
    static let commands: [DesktopAction: String] = [
        .workspaceNext: "workspace next_on_output", .workspacePrevious: "workspace prev_on_output", .closeWindow: "kill", .fullscreen: "fullscreen toggle",
    ]

    func request(for action: DesktopAction) -> ActionRequest? {
        guard let command = Self.commands[action] else { return nil }
        let payload = Array(command.utf8)
        return .bytes(Array("i3-ipc".utf8) + withUnsafeBytes(of: UInt32(payload.count)) { Array($0) } + withUnsafeBytes(of: UInt32(0)) { Array($0) } + payload)
    }

    func answer(_ bytes: [UInt8], closed: Bool) -> ActionAnswer? {
        let header = 14
        guard bytes.count >= header else { return closed ? .refused("\(desktop) closed the socket without an answer") : nil }
        let length = bytes[6..<10].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
        guard bytes.count >= header + length else { return closed ? .refused("\(desktop) closed the socket in the middle of its answer") : nil }
        guard let results = try? JSONValue.parse(Array(bytes[header..<header + length])), let list = results.array else {
            return .refused("\(desktop) answered what is not a command's result")
        }
        if let failed = list.first(where: { $0["success"]?.bool != true }) { return .refused(Self.said(failed["error"])) }
        return .done
    }
}

/// Hyprland's request socket, `.socket.sock`: `dispatch DISPATCHER ARGS` answers `ok`
/// (or why not) and closes. Hyprland has one row of workspaces here (`e+1` is the next
/// one in use on the monitor); maximize is its fullscreen mode 1; it has no overview,
/// launcher, desktop to show or minimize of its own.
struct HyprlandActionWire: ActionWire {
    var desktop: String { "hyprland" }
    let socketPath: String

    /// Hyprland's dispatchers; what is not here it lacks.
    static let dispatchers: [DesktopAction: String] = [
        .workspaceNext: "workspace e+1", .workspacePrevious: "workspace e-1", .closeWindow: "killactive",
        .maximize: "fullscreen 1", .fullscreen: "fullscreen 0",
    ]

    func request(for action: DesktopAction) -> ActionRequest? {
        Self.dispatchers[action].map { .bytes(Array("dispatch \($0)".utf8)) }
    }

    func answer(_ bytes: [UInt8], closed: Bool) -> ActionAnswer? {
        let text = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if text == "ok" { return .done }
        guard closed else { return nil }
        return .refused(text.isEmpty ? "hyprland closed the socket without an answer" : text)
    }
}

/// niri's IPC on `$NIRI_SOCKET`: one JSON request a line, `{"Action":{NAME:{}}}`, answered
/// `{"Ok":"Handled"}` or `{"Err":"why"}`. niri's workspaces are a column per monitor (up
/// and down); the overview came in niri 25.05. It has no launcher, desktop to show or
/// minimize; maximize is its column's full width.
struct NiriActionWire: ActionWire {
    var desktop: String { "niri" }
    let socketPath: String

    /// niri's actions; what is not here it lacks.
    static let actions: [DesktopAction: String] = [
        .workspaceNext: "FocusWorkspaceDown", .workspaceDown: "FocusWorkspaceDown", .workspacePrevious: "FocusWorkspaceUp",
        .workspaceUp: "FocusWorkspaceUp", .overview: "ToggleOverview", .closeWindow: "CloseWindow", .maximize: "MaximizeColumn",
        .fullscreen: "FullscreenWindow",
    ]

    func request(for action: DesktopAction) -> ActionRequest? {
        Self.actions[action].map { .bytes(Array("{\"Action\":{\"\($0)\":{}}}\n".utf8)) }
    }

    func answer(_ bytes: [UInt8], closed: Bool) -> ActionAnswer? {
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            return closed ? .refused("niri closed the socket without an answer") : nil
        }
        guard let reply = try? JSONValue.parse(Array(bytes[..<end])) else { return .refused("niri answered what is not JSON") }
        if reply["Ok"] != nil { return .done }
        return .refused(Self.said(reply["Err"]))
    }
}
