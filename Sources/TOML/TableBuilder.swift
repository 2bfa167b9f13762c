/// A table while the document is being read: tables stay open to headers and dotted
/// keys until the end, so they are reference types here and frozen into ``TOMLTable``
/// values once the whole document is read.
final class TableNode {
    enum Slot {
        /// A finished value: scalar, inline array or inline table.
        case value(TOMLValue)
        case table(TableNode)
        /// The tables of `[[name]]` headers.
        case tableArray(TableArrayNode)
    }

    struct Entry {
        var key: String
        var keyPosition: TOMLPosition
        var slot: Slot
    }

    var origin: TOMLTable.Origin
    var position: TOMLPosition
    /// Tables above this one; the root is 0. Bounded by ``TOMLParser/Limits/maximumDepth``.
    let depth: Int
    /// Keys from the root to here (an inline table in an array: the array's key).
    let path: [String]
    private(set) var entries: [Entry] = []
    private var indexByKey: [String: Int] = [:]

    init(origin: TOMLTable.Origin, position: TOMLPosition, depth: Int, path: [String]) {
        self.origin = origin
        self.position = position
        self.depth = depth
        self.path = path
    }

    func entry(_ key: String) -> Entry? {
        indexByKey[key].map { entries[$0] }
    }

    /// Adds a key the caller has checked is new.
    func add(_ key: String, at position: TOMLPosition, _ slot: Slot) {
        indexByKey[key] = entries.count
        entries.append(Entry(key: key, keyPosition: position, slot: slot))
    }

    /// The finished table. Recursion is bounded by the depth limit.
    func frozen() -> TOMLTable {
        TOMLTable(origin: origin, position: position, entries: entries.map { entry in
            let value: TOMLValue = switch entry.slot {
            case let .value(value): value
            case let .table(node): TOMLValue(.table(node.frozen()), at: node.position)
            case let .tableArray(array):
                TOMLValue(.array(array.elements.map { TOMLValue(.table($0.frozen()), at: $0.position) }), at: array.position)
            }
            return TOMLEntry(key: entry.key, keyPosition: entry.keyPosition, value: value)
        })
    }
}

/// The tables of one `[[name]]` array, in header order.
final class TableArrayNode {
    /// The first `[[name]]` header.
    let position: TOMLPosition
    var elements: [TableNode] = []

    init(position: TOMLPosition) {
        self.position = position
    }
}
