/// Precedence between rules for the same gesture in different windows.
extension Rulebook {
    /// Of two rules that match the same gesture, the one whose window condition is more
    /// specific (``WindowCondition/specificity``) goes first: the other waits for it to
    /// fail. In a gesture begun in a window it does not want, the specific rule sits out
    /// at once, so the general one is not delayed; in one it wants, it wins and the
    /// general one fails. Never both fire. A `require-to-fail` the user wrote the other
    /// way round is kept and this edge left out.
    mutating func addWindowPrecedence() {
        let conditional = rules.filter { !$0.window.isEmpty }
        guard !conditional.isEmpty else { return }
        var present = Set(requirements.map { [$0.waiter, $0.waitedOn] })
        for specific in conditional {
            for general in rules where general.window.specificity < specific.window.specificity
                && general.window.covers(specific.window) && Self.sameGesture(general, specific) && !present.contains([specific.name, general.name]) {
                if present.insert([general.name, specific.name]).inserted {
                    requirements.append(Requirement(waiter: general.name, waitedOn: specific.name, reason: .window))
                }
            }
        }
    }
}
