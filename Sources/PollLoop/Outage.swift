/// What a source says of its connection's ups and downs: a loss once per outage (the tries
/// that follow fail for the same cause, often in other words), and the outage's end once,
/// when a new connection has shown that it works. A peer that takes the connection and
/// drops it again does not end the outage in the log only to start it again. What "shown
/// to work" means is the source's: its first focus for a focus provider, a connection that
/// lasted for an input channel.
///
/// It says nothing itself: each step returns the text to say now, or nil.
public struct Outage: Sendable {
    /// The loss said and not yet over; nil while none is.
    public private(set) var loss: String?
    /// Where the peer was reached during the outage, held until the connection works.
    private var held: String?

    public init() {}

    /// Whether a reach during the outage waits to be shown to work.
    public var isHeld: Bool { held != nil }

    /// The peer was reached, at `text`: returned at once outside an outage; during one,
    /// held for ``confirmed()``.
    public mutating func reached(_ text: String) -> String? {
        guard loss != nil else { return text }
        held = text
        return nil
    }

    /// The connection reached during the outage works: the outage is over, and the held
    /// text is returned to be said. Nil when nothing was held.
    public mutating func confirmed() -> String? {
        guard let text = held else { return nil }
        over()
        return text
    }

    /// The peer answered as it should: the outage, if any, is over, whatever was held.
    public mutating func over() {
        loss = nil
        held = nil
    }

    /// The connection or a try failed for `why`: returned when no outage is said yet, or,
    /// with `eachCause` (states the peer told, not tries that fail), when the cause is new.
    public mutating func lost(_ why: String, eachCause: Bool = false) -> String? {
        held = nil
        if let loss, !eachCause || loss == why { return nil }
        loss = why
        return why
    }
}
