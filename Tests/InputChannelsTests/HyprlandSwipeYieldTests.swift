import Glibc
@testable import InputChannels
import PollLoop
import Testing
import TestSupport
import TouchGestures

/// `desktop-gestures = "yield"` on Hyprland, against a stand-in that speaks Hyprland's
/// documented request socket (`.socket.sock`: one request, one answer, closed;
/// `j/getoption` answers `{"option":…,"int":…,"set":…}`, `keyword` answers `ok`), not the
/// real Hyprland, which cannot run here. The stand-in keeps the options as a Hyprland
/// before 0.51 has them, and every request it got.
@Suite struct HyprlandSwipeYieldTests {
    /// The stand-in Hyprland, served by the test's own loop (beside the yield).
    final class StandIn: PollSource {
        let path: String
        let listener: Int32
        /// `gestures:` options; one not here answers "no such option", as Hyprland 0.51 does
        /// for the removed `workspace_swipe`.
        var options: [String: Int]
        /// Takes requests and never answers: a stuck Hyprland.
        var stalls = false
        private(set) var requests: [String] = []
        private var clients: [Int32] = []

        init(options: [String: Int]) {
            path = "\(temporaryFolder())/.socket.sock"
            listener = listeningSocket(at: path)
            self.options = options
        }

        deinit {
            close(listener)
            for fd in clients { close(fd) }
        }

        func collect(_ interest: inout PollInterest) {
            interest.read(listener)
            for fd in clients { interest.read(fd) }
        }

        var nextDeadline: Timestamp? { nil }
        func handleDeadlines() {}

        func handleReadable(_ fd: Int32) {
            if fd == listener {
                let client = accept(listener, nil, nil)
                if client >= 0 { clients.append(client) }
                return
            }
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else {
                clients.removeAll { $0 == fd }
                close(fd)
                return
            }
            let request = String(decoding: buffer.prefix(count), as: UTF8.self)
            requests.append(request)
            guard !stalls else { return }
            let answer = Self.answer(request, &options)
            _ = answer.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            clients.removeAll { $0 == fd }
            close(fd)
        }

        /// Hyprland's answer to `request`.
        static func answer(_ request: String, _ options: inout [String: Int]) -> String {
            let words = request.split(separator: " ").map(String.init)
            if words.count == 2, words[0] == "j/getoption" {
                guard let value = options[words[1]] else { return "no such option" }
                return #"{"option": "\#(words[1])", "int": \#(value), "set": true}"#
            }
            if words.count == 3, words[0] == "keyword", options[words[1]] != nil {
                options[words[1]] = words[2] == "true" ? 1 : 0
                return "ok"
            }
            return "invalid command"
        }
    }

    static let swipeOn = ["gestures:workspace_swipe": 1, "gestures:workspace_swipe_fingers": 3, "gestures:workspace_swipe_min_fingers": 0]
    static let reads = ["j/getoption gestures:workspace_swipe", "j/getoption gestures:workspace_swipe_fingers",
                        "j/getoption gestures:workspace_swipe_min_fingers"]

    /// A yield on `standIn`'s socket, in one loop with it, and what it said.
    final class Rig {
        let loop = EventLoop()
        let yield: HyprlandSwipeYield
        var said: [String] = []

        init(_ standIn: StandIn) {
            yield = HyprlandSwipeYield(socketPath: standIn.path)
            yield.onReport = { [unowned self] in said.append("\($0)") }
            loop.add(standIn)
            loop.add(yield)
        }

        /// Runs the loop until the yield waits for no answer: events, bounded far above them.
        func settle() {
            let end = PollScheduler.now() + .seconds(10)
            while yield.isWaiting && PollScheduler.now() < end {
                _ = loop.run(until: PollScheduler.now() + .milliseconds(20))
            }
        }
    }

    static let yielded = "desktop gestures: turned hyprland's own 3-finger workspace swipe off ('keyword gestures:workspace_swipe false') while rules bind 3-finger swipes; "
        + "touchgest turns it back on when it stops or its rules no longer bind them; if touchgest dies first, 'hyprctl reload' does"

    @Test func yieldReadsTheSwipeThenTurnsItOffForTheBoundCount() {
        let standIn = StandIn(options: Self.swipeOn)
        let rig = Rig(standIn)
        rig.yield.bind(fingers: [3])
        rig.settle()
        #expect(standIn.requests == Self.reads + ["keyword gestures:workspace_swipe false"])
        #expect(standIn.options["gestures:workspace_swipe"] == 0)
        #expect(rig.said == ["desktop gestures: hyprland's own workspace swipe is on, for 3 fingers", Self.yielded])
    }

    @Test func rulesThatNoLongerBindTheCountGiveItBackAndTheNextYieldReadsAfresh() {
        let standIn = StandIn(options: Self.swipeOn)
        let rig = Rig(standIn)
        rig.yield.bind(fingers: [3])
        rig.settle()
        rig.yield.bind(fingers: [])
        rig.settle()
        #expect(standIn.requests.suffix(1) == ["keyword gestures:workspace_swipe true"])
        #expect(standIn.options["gestures:workspace_swipe"] == 1)
        #expect(rig.said.last == "desktop gestures: turned hyprland's own workspace swipe back on ('keyword gestures:workspace_swipe true')")
        // The user may change the swipe meanwhile: it is read again, now for 4 fingers.
        standIn.options["gestures:workspace_swipe_fingers"] = 4
        rig.yield.bind(fingers: [3])
        rig.settle()
        #expect(standIn.requests.suffix(3) == Self.reads[...])
        #expect(standIn.options["gestures:workspace_swipe"] == 1)
    }

    @Test func onlyMoreFingersThanTheSwipesOwnTurnOffItsOrMoreAlone() {
        var options = Self.swipeOn
        options["gestures:workspace_swipe_min_fingers"] = 1
        let standIn = StandIn(options: options)
        let rig = Rig(standIn)
        rig.yield.bind(fingers: [4])
        rig.settle()
        #expect(standIn.requests == Self.reads + ["keyword gestures:workspace_swipe_min_fingers false"])
        #expect(standIn.options == ["gestures:workspace_swipe": 1, "gestures:workspace_swipe_fingers": 3, "gestures:workspace_swipe_min_fingers": 0])
    }

    @Test func nothingBoundOrNoClashTouchesNothing() {
        let standIn = StandIn(options: Self.swipeOn)
        let rig = Rig(standIn)
        rig.yield.bind(fingers: [])
        rig.settle()
        #expect(standIn.requests == [])
        rig.yield.bind(fingers: [4, 5])
        rig.settle()
        #expect(standIn.requests == Self.reads)
        #expect(standIn.options == Self.swipeOn)
        rig.yield.restoreBeforeExit()
        #expect(standIn.requests == Self.reads)
    }

    @Test func hyprland051WithoutTheOptionsIsSaidOnceAndNotAskedAgain() {
        let standIn = StandIn(options: [:])
        let rig = Rig(standIn)
        rig.yield.bind(fingers: [3])
        rig.settle()
        rig.yield.bind(fingers: [3, 4])
        rig.settle()
        #expect(standIn.requests == ["j/getoption gestures:workspace_swipe"])
        #expect(rig.said == ["desktop gestures: cannot yield hyprland's own swipes: it answered 'no such option' for gestures:workspace_swipe; "
                + "from Hyprland 0.51 they are 'gesture =' lines in hyprland.conf, which its socket does not list: remove the ones with the fingers your rules bind"])
    }

    /// A pipe the loop reads, standing for input: how many times it was handled.
    final class Probe: PollSource {
        var ends: [Int32] = [-1, -1]
        var handled = 0
        init() { pipe(&ends) }
        deinit { close(ends[0]); close(ends[1]) }
        func collect(_ interest: inout PollInterest) { interest.read(ends[0]) }
        func handleReadable(_ fd: Int32) {
            var byte: UInt8 = 0
            if read(fd, &byte, 1) == 1 { handled += 1 }
        }
        var nextDeadline: Timestamp? { nil }
        func handleDeadlines() {}
        func poke() {
            var byte: UInt8 = 1
            _ = write(ends[1], &byte, 1)
        }
    }

    @Test func aStalledHyprlandNeverHoldsTheLoopAndIsGivenUpOn() {
        let standIn = StandIn(options: Self.swipeOn)
        standIn.stalls = true
        let rig = Rig(standIn)
        let probe = Probe()
        rig.loop.add(probe)
        rig.yield.bind(fingers: [3])
        // While the request waits, input is handled at once, each time.
        for expected in 1...5 {
            probe.poke()
            let end = PollScheduler.now() + .seconds(10)
            while probe.handled < expected && PollScheduler.now() < end { _ = rig.loop.run(until: PollScheduler.now() + .milliseconds(20)) }
            #expect(probe.handled == expected)
            #expect(rig.yield.isWaiting)
        }
        rig.settle()
        #expect(standIn.requests == ["j/getoption gestures:workspace_swipe"])
        #expect(rig.said == ["desktop gestures: hyprland did not answer 'j/getoption gestures:workspace_swipe' within 2 s; its own workspace swipe is left as it is"])
    }

    /// One connection to `path`'s listener, answered `answer` on a thread of its own (the
    /// exit's wait blocks the test's thread); the request it got.
    static func answerOnce(_ listener: Int32, _ answer: String) -> BackgroundAttempt<String>? {
        BackgroundAttempt.start({
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 10_000) == 1 else { return "" }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return "" }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 4_096)
            let count = recv(fd, &buffer, buffer.count, 0)
            _ = answer.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
        }, dispose: { _ in })
    }

    @Test func atExitTheSwipeIsTurnedBackOnAndAStuckHyprlandHoldsTheExitNoLongerThanItsBound() throws {
        let standIn = StandIn(options: Self.swipeOn)
        let rig = Rig(standIn)
        rig.yield.bind(fingers: [3])
        rig.settle()
        let server = try #require(Self.answerOnce(standIn.listener, "ok"))
        rig.yield.restoreBeforeExit()
        var entry = pollfd(fd: server.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 10_000)
        #expect(server.take() == "keyword gestures:workspace_swipe true")
        #expect(rig.said.last == "desktop gestures: turned hyprland's own workspace swipe back on ('keyword gestures:workspace_swipe true')")

        // A second run: the stand-in never answers the exit's request.
        let stuck = StandIn(options: Self.swipeOn)
        let stuckRig = Rig(stuck)
        stuckRig.yield.bind(fingers: [3])
        stuckRig.settle()
        let began = PollScheduler.now()
        stuckRig.yield.restoreBeforeExit()
        let took = PollScheduler.now() - began
        #expect(took >= InputChannelDefaults.restoreTimeout && took < .seconds(2), "\(took)")
        #expect(stuckRig.said.last == "desktop gestures: hyprland did not answer within 500 ms as touchgest stopped: its own workspace swipe stays off (gestures:workspace_swipe false) until 'hyprctl reload'")
    }
}
