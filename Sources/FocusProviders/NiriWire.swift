import TextWire
import TouchGestures
/// niri's IPC on `$NIRI_SOCKET`: JSON, one message per line. Sending the request
/// `"EventStream"` gets `{"Ok":"Handled"}`, then the whole state (`WindowsChanged` with
/// every window) and every change after it: `WindowOpenedOrChanged`, `WindowClosed`,
/// `WindowFocusChanged` (an id, or null when nothing is focused).
public final class NiriWire: FocusWire {
    public var desktop: String { "niri" }
    private let environment: [String: String]
    private var lines: LineBuffer
    private var handled = false
    private var windows: [Double: (appID: String, title: String)] = [:]
    private var focusedID: Double?

    /// `maximumMessageBytes`: the longest line taken (``FocusDefaults/maximumMessageBytes``).
    public init(environment: [String: String], maximumMessageBytes: Int = FocusDefaults.maximumMessageBytes) {
        self.environment = environment
        lines = LineBuffer(maximumLineBytes: maximumMessageBytes)
    }

    public func endpoints() throws(FocusWireError) -> [FocusEndpoint] {
        guard let path = environment["NIRI_SOCKET"], !path.isEmpty else { throw FocusWireError("$NIRI_SOCKET is not set") }
        return [FocusEndpoint(path: path, hello: Array("\"EventStream\"\n".utf8))]
    }

    public func reset() {
        lines.reset()
        handled = false
        windows.removeAll()
        focusedID = nil
    }

    public func receive(_ bytes: [UInt8], from index: Int) throws(FocusWireError) -> FocusWireOutput {
        var output = FocusWireOutput()
        for line in try lines.lines(bytes) where !line.isEmpty {
            let json: JSONValue
            do { json = try JSONValue.parse(line) } catch { throw FocusWireError("\(error)") }
            guard handled else {
                guard json["Ok"] != nil else {
                    throw FocusWireError("the event stream was refused: \(json["Err"]?.string ?? "no reason given")")
                }
                handled = true
                continue
            }
            if apply(json) { output.focus = focus }
        }
        return output
    }

    public func finished(_ index: Int) throws(FocusWireError) -> FocusWireOutput { FocusWireOutput() }

    public var holdsPartialMessage: Bool { !lines.rest.isEmpty }

    /// Applies one event; true when it may have changed the focus.
    private func apply(_ event: JSONValue) -> Bool {
        if let list = event["WindowsChanged"]?["windows"]?.array {
            windows.removeAll()
            focusedID = nil
            for window in list { remember(window) }
            return true
        }
        if let window = event["WindowOpenedOrChanged"]?["window"] {
            remember(window)
            return true
        }
        if let id = event["WindowClosed"]?["id"]?.number {
            windows[id] = nil
            if focusedID == id { focusedID = nil }
            return true
        }
        if let change = event["WindowFocusChanged"] {
            focusedID = change["id"]?.number
            return true
        }
        return false
    }

    private func remember(_ window: JSONValue) {
        guard let id = window["id"]?.number else { return }
        // Cut where they enter: the table holds every window, and a title is never
        // needed past what a rule or a command sees.
        windows[id] = ((window["app_id"]?.string ?? "").prefix(utf8Bytes: maximumOutsideTextBytes),
                       (window["title"]?.string ?? "").prefix(utf8Bytes: maximumOutsideTextBytes))
        if window["is_focused"]?.bool == true { focusedID = id } else if focusedID == id { focusedID = nil }
    }

    private var focus: WindowFocus {
        guard let id = focusedID, let window = windows[id] else { return .noWindow }
        return .window(appID: window.appID, title: window.title)
    }
}
