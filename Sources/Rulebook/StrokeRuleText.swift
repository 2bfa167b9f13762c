import StrokeGestures
import TextWire
import TouchGestures

/// A stroke rule as rule-file text: what `touchgest learn` prints or appends, readable and
/// editable, one template a line.
public enum StrokeRuleText {
    /// The rule's lines. `threshold` is written only when it is not the default.
    public static func rule(name: String, device: DeviceKind, fingers: Int, templates: [StrokeTemplate],
                            threshold: Double? = nil, command: String) -> String {
        var lines = ["[rule.\(key(name))]", "gesture = \"stroke\"", "device = \"\(device.rawValue)\"", "fingers = \(fingers)"]
        if let threshold, threshold != StrokeDefaults.threshold { lines.append("threshold = \(fixedDecimals(threshold, 2))") }
        lines.append("template = [")
        for template in templates {
            lines.append("    [" + template.points.map { "[\(fixedDecimals($0.x, 2)), \(fixedDecimals($0.y, 2))]" }.joined(separator: ", ") + "],")
        }
        lines.append("]")
        lines.append("command = \(quoted(command))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name` as a TOML key: bare when it may be, else quoted.
    public static func key(_ name: String) -> String {
        let bare = !name.isEmpty && name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
        }
        return bare ? name : quoted(name)
    }

    /// `text` as a TOML basic string: a JSON string is one (TOML's basic strings take
    /// JSON's escapes), so the one escaper of JSON lines writes it, control and bidi
    /// characters escaped.
    public static func quoted(_ text: String) -> String {
        var result = ""
        appendJSONString(text, to: &result)
        return result
    }
}
