/// `value` with a fixed count of decimals (`1.250`, `-0.5`, `12`), rounded half away from
/// zero, without Foundation; values of 1e15 and more (scaled) as Swift writes them.
///
/// touchgest's one number formatter. It stays in the engine, not in TextWire, because the
/// engine's own transition log needs it: a touchpad pinch's cause reads
/// `pinch-update 2f scale 1.250 angle 3.0`, and a point `10.0,12.5`.
public func fixedDecimals(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 1e15 else { return "\(value)" }
    let whole = Int(scaled) / Int(scale)
    let fraction = Int(scaled) % Int(scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return "\(sign)\(whole)" }
    let digits = String(fraction)
    return "\(sign)\(whole).\(String(repeating: "0", count: decimals - digits.count))\(digits)"
}
