import Testing
@testable import TouchGestures

@Suite struct ManualSchedulerTests {
    @Test func timersFireInDeadlineOrderAndEqualDeadlinesInTheOrderAdded() {
        let scheduler = ManualScheduler()
        var fired: [String] = []
        _ = scheduler.schedule(at: .milliseconds(20)) { _ in fired.append("b") }
        _ = scheduler.schedule(at: .milliseconds(10)) { _ in fired.append("a") }
        _ = scheduler.schedule(at: .milliseconds(20)) { _ in fired.append("c") }
        scheduler.advance(to: .milliseconds(20))
        #expect(fired == ["a", "b", "c"])
        #expect(scheduler.now == .milliseconds(20))
    }

    @Test func fireTimersBeforeATimeLeavesATimerDueExactlyThen() {
        let scheduler = ManualScheduler()
        var fired: [Timestamp] = []
        _ = scheduler.schedule(at: .milliseconds(10)) { fired.append($0) }
        _ = scheduler.schedule(at: .milliseconds(20)) { fired.append($0) }
        scheduler.fireTimers(before: .milliseconds(20))
        #expect(fired == [.milliseconds(10)])
        #expect(scheduler.nextDeadline == .milliseconds(20))
    }

    @Test func aCancelledTimerNeverFires() {
        let scheduler = ManualScheduler()
        var fired = false
        let token = scheduler.schedule(at: .milliseconds(10)) { _ in fired = true }
        scheduler.cancel(token)
        scheduler.runUntilIdle()
        #expect(!fired)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aTimerMayScheduleAnother() {
        let scheduler = ManualScheduler()
        var fired: [UInt64] = []
        _ = scheduler.schedule(at: .milliseconds(10)) { time in
            fired.append(time.microseconds)
            _ = scheduler.schedule(at: time + .milliseconds(5)) { fired.append($0.microseconds) }
        }
        scheduler.advance(to: .milliseconds(100))
        #expect(fired == [10_000, 15_000])
    }

    @Test func timestampsPrintAsMilliseconds() {
        #expect(Timestamp(microseconds: 120_045).description == "120.045ms")
        #expect((Timestamp.milliseconds(5) + .milliseconds(-10)).microseconds == 0)
        #expect(Timestamp.milliseconds(30) - .milliseconds(10) == .milliseconds(20))
    }
}
