import TouchGestures

/// A wait as the log says it: "5 s", "200 ms" (whole milliseconds, cut toward zero).
public func shown(_ duration: Duration) -> String {
    let milliseconds = wholeMilliseconds(duration)
    return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds) ms"
}

/// A delay in seconds, as the daemon's stream and socket retries say it: "30s", "0.25s".
public func shownInSeconds(_ duration: Duration) -> String {
    let milliseconds = wholeMilliseconds(duration)
    return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000)s" : "\(fixedDecimals(Double(milliseconds) / 1_000, 2))s"
}

/// A size as the log says it: "1 MiB", "16 KiB", "300 bytes".
public func shownBytes(_ count: Int) -> String {
    if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
}

private func wholeMilliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
}

/// `0.1`, `50`, `10000`: a number as a user would write it, whole numbers without a
/// fraction, others in Swift's shortest form that reads back as the same Double.
public func shownNumber(_ number: Double) -> String {
    number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
}
