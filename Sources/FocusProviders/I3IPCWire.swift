import Glibc
import TextWire

/// The i3 IPC, which sway speaks too: `i3-ipc`, a 32-bit length and type in the host's
/// byte order, then a JSON payload.
///
/// On connecting it subscribes to window and workspace events and asks for the tree
/// once (GET_TREE) for the focus at that moment. A window event `focus` or `title` on
/// the focused container names the new focus; a workspace `focus` or a window `close`
/// asks for the tree again, since an empty workspace has no window event.
public final class I3IPCWire: FocusWire {
    public enum Flavour: String, Sendable {
        case sway, i3
    }

    enum MessageType: UInt32 {
        case subscribe = 2
        case getTree = 4
    }

    /// Events have the high bit set; the rest is the event's number.
    static let eventBit: UInt32 = 0x8000_0000
    static let workspaceEvent: UInt32 = 0
    static let windowEvent: UInt32 = 3
    static let magic = Array("i3-ipc".utf8)
    static let headerSize = 14

    public let flavour: Flavour
    public var desktop: String { flavour.rawValue }
    private let environment: [String: String]
    private var pending: [UInt8] = []
    /// The id of the focused container, to notice when it closes.
    private var focusedID: Double?

    /// `environment` holds `SWAYSOCK` or `I3SOCK` (and `XDG_RUNTIME_DIR` to look for a
    /// restarted sway's new socket).
    /// The longest message taken (``FocusDefaults/maximumMessageBytes``).
    private let maximumMessageBytes: Int

    public init(_ flavour: Flavour, environment: [String: String], maximumMessageBytes: Int = FocusDefaults.maximumMessageBytes) {
        self.flavour = flavour
        self.environment = environment
        self.maximumMessageBytes = maximumMessageBytes
    }

    public func endpoints() throws(FocusWireError) -> [FocusEndpoint] {
        let variable = flavour == .sway ? "SWAYSOCK" : "I3SOCK"
        var path = environment[variable] ?? ""
        if access(path, F_OK) != 0, flavour == .sway, let found = Self.newestSwaySocket(in: environment["XDG_RUNTIME_DIR"]) {
            path = found
        }
        guard !path.isEmpty else { throw FocusWireError("$\(variable) is not set") }
        let hello = Self.message(.subscribe, Array(#"["window","workspace"]"#.utf8)) + Self.message(.getTree, [])
        return [FocusEndpoint(path: path, hello: hello)]
    }

    public func reset() {
        pending.removeAll()
        focusedID = nil
    }

    /// One request: magic, length, type, payload.
    static func message(_ type: MessageType, _ payload: [UInt8]) -> [UInt8] {
        magic + withUnsafeBytes(of: UInt32(payload.count)) { Array($0) } + withUnsafeBytes(of: type.rawValue) { Array($0) } + payload
    }

    public func receive(_ bytes: [UInt8], from index: Int) throws(FocusWireError) -> FocusWireOutput {
        pending += bytes
        var output = FocusWireOutput()
        var start = 0
        while pending.count - start >= Self.headerSize {
            guard Array(pending[start..<start + 6]) == Self.magic else { throw FocusWireError("a message without the i3-ipc magic") }
            let length = Int(Self.word(pending, at: start + 6))
            let type = Self.word(pending, at: start + 10)
            guard length <= maximumMessageBytes else {
                throw FocusWireError("a message of \(length) bytes, more than \(maximumMessageBytes)")
            }
            guard pending.count - start >= Self.headerSize + length else { break }
            let payload = pending[start + Self.headerSize..<start + Self.headerSize + length]
            start += Self.headerSize + length
            let step = try handle(type: type, payload: payload)
            output.send += step.send
            if let focus = step.focus { output.focus = focus }
        }
        pending.removeFirst(start)
        return output
    }

    public func finished(_ index: Int) throws(FocusWireError) -> FocusWireOutput { FocusWireOutput() }

    public var holdsPartialMessage: Bool { !pending.isEmpty }

    private func handle(type: UInt32, payload: ArraySlice<UInt8>) throws(FocusWireError) -> FocusWireOutput {
        let json: JSONValue
        do { json = try JSONValue.parse(payload) } catch { throw FocusWireError("\(error)") }
        switch type {
        case MessageType.subscribe.rawValue:
            guard json["success"]?.bool == true else { throw FocusWireError("the subscription was refused") }
            return FocusWireOutput()
        case MessageType.getTree.rawValue:
            return FocusWireOutput(focus: focus(inTree: json))
        case Self.eventBit | Self.windowEvent:
            let change = json["change"]?.string ?? ""
            let container = json["container"] ?? .null
            switch change {
            case "focus":
                focusedID = container["id"]?.number
                return FocusWireOutput(focus: Self.window(container))
            case "title" where container["focused"]?.bool == true:
                // Only the focused window's new title is the focus's.
                focusedID = container["id"]?.number
                return FocusWireOutput(focus: Self.window(container))
            case "close" where container["id"]?.number == focusedID:
                return FocusWireOutput(send: Self.message(.getTree, []))
            default:
                return FocusWireOutput()
            }
        case Self.eventBit | Self.workspaceEvent:
            guard json["change"]?.string == "focus" else { return FocusWireOutput() }
            return FocusWireOutput(send: Self.message(.getTree, []))
        default:
            return FocusWireOutput()
        }
    }

    /// The focused node of the tree: a window, or a workspace or output (no window).
    private func focus(inTree root: JSONValue) -> WindowFocus {
        var stack = [root]
        while let node = stack.popLast() {
            if node["focused"]?.bool == true {
                let type = node["type"]?.string ?? ""
                guard type == "con" || type == "floating_con" else {
                    focusedID = nil
                    return .noWindow
                }
                focusedID = node["id"]?.number
                return Self.window(node)
            }
            stack += node["nodes"]?.array ?? []
            stack += node["floating_nodes"]?.array ?? []
        }
        focusedID = nil
        return .noWindow
    }

    /// A container's app id (Xwayland and i3: its WM_CLASS class) and title.
    static func window(_ container: JSONValue) -> WindowFocus {
        let appID = container["app_id"]?.string ?? container["window_properties"]?["class"]?.string ?? ""
        return .window(appID: appID, title: container["name"]?.string ?? "")
    }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for index in 0..<4 { raw[index] = bytes[offset + index] }
        }
        return value
    }

    /// sway makes `sway-ipc.UID.PID.sock` in the runtime folder; after a restart
    /// `$SWAYSOCK` may name the old one. The newest of the user's is the running sway's.
    static func newestSwaySocket(in folder: String?) -> String? {
        guard let folder, let dir = opendir(folder) else { return nil }
        defer { closedir(dir) }
        let prefix = "sway-ipc.\(getuid())."
        var best: (path: String, time: Int) = ("", -1)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(prefix), name.hasSuffix(".sock") else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else { continue }
            if info.st_mtim.tv_sec > best.time { best = (path, info.st_mtim.tv_sec) }
        }
        return best.time >= 0 ? best.path : nil
    }
}
