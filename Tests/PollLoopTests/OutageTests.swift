import PollLoop
import Testing

/// How a source's outages read in the log: one line when it starts, one when it ends, and
/// nothing for the tries between.
@Suite struct OutageTests {
    @Test func aReachOutsideAnOutageIsSaidAtOnce() {
        var outage = Outage()
        #expect(outage.reached("sway at /run/sway.sock") == "sway at /run/sway.sock")
        #expect(!outage.isHeld)
    }

    @Test func theTriesOfOneOutageAreSaidOnceAndItsEndOnceItWorks() {
        var outage = Outage()
        #expect(outage.lost("the socket closed") == "the socket closed")
        #expect(outage.lost("no such file") == nil)
        #expect(outage.reached("sway") == nil)
        #expect(outage.isHeld)
        #expect(outage.confirmed() == "sway")
        #expect(outage.loss == nil)
        #expect(outage.confirmed() == nil)
        #expect(outage.lost("the socket closed") == "the socket closed")
    }

    @Test func aPeerThatDropsTheConnectionBeforeItWorksDoesNotEndTheOutage() {
        var outage = Outage()
        _ = outage.lost("refused")
        #expect(outage.reached("sway") == nil)
        #expect(outage.lost("the socket closed") == nil)
        #expect(!outage.isHeld)
        #expect(outage.confirmed() == nil)
        #expect(outage.loss == "refused")
    }

    @Test func statesThePeerToldAreSaidOncePerCause() {
        var outage = Outage()
        #expect(outage.lost("GNOME Shell left the bus", eachCause: true) == "GNOME Shell left the bus")
        #expect(outage.lost("GNOME Shell left the bus", eachCause: true) == nil)
        #expect(outage.lost("the extension is disabled", eachCause: true) == "the extension is disabled")
    }

    @Test func anAnswerEndsTheOutageWhateverWasHeld() {
        var outage = Outage()
        _ = outage.lost("refused")
        _ = outage.reached("kwin")
        outage.over()
        #expect(outage.loss == nil)
        #expect(!outage.isHeld)
        #expect(outage.reached("kwin") == "kwin")
    }
}
