import Glibc
import TextWire

/// Hyprland's two sockets in `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE/`
/// (before Hyprland 0.40: `/tmp/hypr/...`):
/// - `.socket2.sock` streams events, one per line, `EVENT>>DATA`; focus changes come as
///   `activewindow>>CLASS,TITLE` (both empty when nothing is focused);
/// - `.socket.sock` answers one request and closes: `j/activewindow` gives the focused
///   window as JSON (`{}` when none), for the focus at the moment of connecting.
public final class HyprlandWire: FocusWire {
    public var desktop: String { "hyprland" }
    private let environment: [String: String]
    private var events: LineBuffer
    /// The longest line or answer taken (``FocusDefaults/maximumMessageBytes``).
    private let maximumMessageBytes: Int
    private var answer: [UInt8] = []
    /// An event came before the request's answer, which is then older than it.
    private var sawEvent = false

    public init(environment: [String: String], maximumMessageBytes: Int = FocusDefaults.maximumMessageBytes) {
        self.environment = environment
        self.maximumMessageBytes = maximumMessageBytes
        events = LineBuffer(maximumLineBytes: maximumMessageBytes)
    }

    public func endpoints() throws(FocusWireError) -> [FocusEndpoint] {
        guard let signature = environment["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty else {
            throw FocusWireError("$HYPRLAND_INSTANCE_SIGNATURE is not set")
        }
        let folders = [environment["XDG_RUNTIME_DIR"].map { "\($0)/hypr/\(signature)" }, "/tmp/hypr/\(signature)"].compactMap { $0 }
        guard let folder = folders.first(where: { access("\($0)/.socket2.sock", F_OK) == 0 }) else {
            throw FocusWireError("no Hyprland event socket in \(folders.map { "\($0)/.socket2.sock" }.joined(separator: " or "))")
        }
        return [FocusEndpoint(path: "\(folder)/.socket2.sock", hello: []),
                FocusEndpoint(path: "\(folder)/.socket.sock", hello: Array("j/activewindow".utf8))]
    }

    public func reset() {
        events.reset()
        answer.removeAll()
        sawEvent = false
    }

    public func receive(_ bytes: [UInt8], from index: Int) throws(FocusWireError) -> FocusWireOutput {
        guard index == 0 else {
            answer += bytes
            guard answer.count <= maximumMessageBytes else { throw FocusWireError("an answer too long") }
            return FocusWireOutput()
        }
        var output = FocusWireOutput()
        for line in try events.lines(bytes) {
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("activewindow>>") else { continue }
            sawEvent = true
            let data = text.dropFirst("activewindow>>".count)
            // The class has no comma; the title may have many.
            let comma = data.firstIndex(of: ",") ?? data.endIndex
            let appID = String(data[..<comma])
            let title = comma == data.endIndex ? "" : String(data[data.index(after: comma)...])
            output.focus = appID.isEmpty && title.isEmpty ? .noWindow : .window(appID: appID, title: title)
        }
        return output
    }

    public var holdsPartialMessage: Bool { !events.rest.isEmpty || !answer.isEmpty }

    public func finished(_ index: Int) throws(FocusWireError) -> FocusWireOutput {
        defer { answer.removeAll() }
        guard !sawEvent else { return FocusWireOutput() }
        let json: JSONValue
        do { json = try JSONValue.parse(answer) } catch { throw FocusWireError("activewindow: \(error)") }
        guard let appID = json["class"]?.string else { return FocusWireOutput(focus: .noWindow) }
        return FocusWireOutput(focus: .window(appID: appID, title: json["title"]?.string ?? ""))
    }
}
