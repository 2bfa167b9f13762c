import StrokeGestures
import TOML
import TextWire
import TouchGestures

/// Reading a stroke's `template` and checking what fingers can draw one where.
extension RuleParser {
    /// Most templates one rule may have (``StrokeDefaults/maximumTemplatesPerRule``).
    static let maximumTemplatesPerRule = StrokeDefaults.maximumTemplatesPerRule

    /// `template`: one list of `[x, y]` points, or a list of such lists; each value's
    /// problem is an error where that value is written.
    mutating func templates(_ value: TOMLValue, _ key: String) -> [StrokeTemplate]? {
        let example = "like [[0,0],[0.5,1],[1,0]]"
        guard let outer = value.array, !outer.isEmpty else {
            let what = value.array == nil ? "not \(Self.describe(value))" : "not an empty list"
            error("\(key) must be a list of points \(example), or a list of such lists; \(what)", at: value.position)
            return nil
        }
        // A list of points holds lists of numbers; a list of templates, lists of lists.
        let several = outer[0].array?.first?.array != nil
        let lists = several ? outer : [value]
        guard lists.count <= Self.maximumTemplatesPerRule else {
            error("\(key) has \(lists.count) templates; a rule may have at most \(Self.maximumTemplatesPerRule)", at: value.position)
            return nil
        }
        var templates: [StrokeTemplate] = []
        var ok = true
        for list in lists {
            guard let elements = list.array else {
                error("a template must be a list of points [x, y] \(example), not \(Self.describe(list))", at: list.position)
                ok = false
                continue
            }
            var points: [Point] = []
            for element in elements {
                guard let point = templatePoint(element) else {
                    ok = false
                    continue
                }
                points.append(point)
            }
            guard points.count == elements.count else { continue }
            do throws(StrokeTemplate.Problem) {
                templates.append(try StrokeTemplate(points: points))
            } catch {
                self.error(error.description, at: list.position)
                ok = false
            }
        }
        return ok ? templates : nil
    }

    /// One `[x, y]` of a template, each number 0 to 1.
    private mutating func templatePoint(_ element: TOMLValue) -> Point? {
        guard let pair = element.array, pair.count == 2 else {
            error("a template point is [x, y], two numbers from 0 to 1, not \(Self.describe(element))", at: element.position)
            return nil
        }
        let x = coordinate(pair[0], "x")
        let y = coordinate(pair[1], "y")
        guard let x, let y else { return nil }
        return Point(x: x, y: y)
    }

    /// One coordinate of a template point: a number from 0 to 1.
    private mutating func coordinate(_ value: TOMLValue, _ axis: String) -> Double? {
        let number: Double? = value.integer.map(Double.init) ?? value.float
        guard let number, number.isFinite else {
            error("template \(axis) must be a number from 0 to 1, not \(Self.describe(value))", at: value.position)
            return nil
        }
        guard number >= 0 && number <= 1 else {
            error("template \(axis) \(shownNumber(number)) is out of range; expected 0 to 1 (the box's left or top edge to its right or bottom edge)",
                  at: value.position)
            return nil
        }
        return number
    }

    /// A stroke needs its templates, and fingers a device can draw with: 1 to 3 on a
    /// touchscreen, 2 to 4 on a touchpad (one finger there is the pointer), read from the
    /// fingers, since libinput's touchpad gestures have no path.
    mutating func checkStroke(_ rule: Rule, table: TOMLTable, header: TOMLPosition) {
        guard rule.gesture == .stroke else { return }
        if table["template"] == nil {
            error("rule '\(rule.name)' has no template; add template = [[x, y], ...] with the shape's points in drawing order, or draw it with touchgest learn \(rule.name)",
                  at: header)
        }
        let at = Self.place(table, table["fingers"] != nil ? "fingers" : "gesture")
        if rule.device != .touchpad, let complaint = FingerLimit.of(.stroke, on: .touchscreen)?.complaint(about: rule.fingers) {
            let any = rule.device == .any ? " (device = \"any\" includes touchscreens; give device = \"touchpad\" for more)" : ""
            error(complaint + any, at: at)
        }
        if rule.touchpadInput == .contacts, let complaint = FingerLimit.of(.stroke, on: .contacts)?.complaint(about: rule.fingers) {
            error(complaint, at: at)
        }
        if rule.touchpadInput == .gestures {
            error("a stroke on a touchpad needs its fingers: libinput's touchpad gestures have no path; remove source = \"libinput\"",
                  at: Self.place(table, "source"))
        }
    }
}
