import PollLoop
import Testing

/// The one back-off rule of every connection (``Backoff``), with BusLink's and the focus
/// providers' values.
struct BackoffTests {
    static let policy = ReconnectPolicy(firstRetry: .milliseconds(100), maximumRetry: .seconds(2), stableConnection: .seconds(10),
                                        maximumFlappingRetry: .seconds(60), triesUnreached: true)

    @Test func failedTriesDoubleUpToTheLongestWaitWhileGone() {
        var backoff = Backoff(Self.policy)
        let waits = (0..<7).map { _ in backoff.afterFailedTry() }
        #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1_600),
                          .seconds(2), .seconds(2)])
    }

    /// A peer that takes the connection and drops it at once (a handshake, then a drop) is
    /// tried less and less often, up to a minute: the waits do not start over at each
    /// connection, only after one that lasted.
    @Test func aPeerThatKeepsDroppingTouchgestIsTriedLessAndLessOften() {
        var backoff = Backoff(Self.policy)
        let waits = (0..<12).map { _ in backoff.afterLoss(.milliseconds(5)) }
        #expect(waits.prefix(4) == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
        #expect(waits.suffix(2) == [.seconds(60), .seconds(60)])
        // A try that fails after such a loss keeps the long wait.
        #expect(backoff.afterFailedTry() == .seconds(60))
    }

    @Test func aConnectionThatLastedStartsTheWaitsOver() {
        var backoff = Backoff(Self.policy)
        for _ in 0..<5 { _ = backoff.afterLoss(.seconds(1)) }
        #expect(backoff.afterLoss(.seconds(10)) == .milliseconds(100))
        #expect(backoff.afterFailedTry() == .milliseconds(200))
    }
}
