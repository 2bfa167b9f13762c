import Glibc
import InputActions
@testable import InputChannels
import PollLoop
import Testing
import TestSupport
import TouchGestures

/// Desktop actions on a desktop's IPC socket, against stand-in desktops that speak the
/// documented wire formats (not the real Hyprland or niri, which do not run here; sway's
/// is checked on the real sway in SwayInputTests): the exact request each action sends,
/// and what each kind of answer makes the channel say.
@Suite struct ActionWireTests {
    /// A stand-in desktop: one listening socket, accepted in the test's own thread.
    struct StandIn {
        let path: String
        let listener: Int32

        init() {
            path = "\(temporaryFolder())/desktop.sock"
            listener = listeningSocket(at: path)
        }

        /// The next connection and the request on it (waiting up to a second for each).
        func accept(requestBytes: Int) -> (fd: Int32, request: [UInt8])? {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 1_000) == 1 else { return nil }
            let fd = Glibc.accept(listener, nil, nil)
            return fd < 0 ? nil : (fd, receiveBytes(from: fd, atLeast: requestBytes))
        }
    }

    /// Presses `action`, answers its request with `answer` (closing after it when
    /// `closes`), and runs the loop until the channel holds no action; what it said.
    static func exchange(_ wire: any ActionWire, _ action: DesktopAction, standIn: StandIn, requestBytes: Int,
                         answer: [UInt8], closes: Bool) -> (request: [UInt8], said: [String]) {
        let channel = ActionChannel(wire: wire)
        var said: [String] = []
        channel.onReport = { said.append("\($0)") }
        let loop = EventLoop()
        loop.add(channel)
        channel.press(.desktop(action))
        guard let (fd, request) = standIn.accept(requestBytes: requestBytes) else { return ([], said + ["no connection"]) }
        _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if closes { close(fd) }
        // Waits for the answer to be read: an event, bounded far above what it takes.
        let end = PollScheduler.now() + .seconds(10)
        while channel.waitingActions > 0 && PollScheduler.now() < end {
            _ = loop.run(until: PollScheduler.now() + .milliseconds(20))
        }
        if !closes { close(fd) }
        return (request, said)
    }

    static func i3Message(type: UInt32, _ payload: String) -> [UInt8] {
        Array("i3-ipc".utf8) + withUnsafeBytes(of: UInt32(payload.utf8.count)) { Array($0) } + withUnsafeBytes(of: type) { Array($0) }
            + Array(payload.utf8)
    }

    @Test func swayGetsItsRunCommandAndARefusalIsSaidInItsWords() {
        let standIn = StandIn()
        let wire = I3ActionWire(desktop: "sway", socketPath: standIn.path)
        let done = Self.exchange(wire, .workspaceNext, standIn: standIn, requestBytes: 38,
                                 answer: Self.i3Message(type: 0, #"[{"success":true}]"#), closes: false)
        #expect(done.request == Self.i3Message(type: 0, "workspace next_on_output"))
        #expect(done.said == [])
        let refused = Self.exchange(wire, .fullscreen, standIn: standIn, requestBytes: 31,
                                    answer: Self.i3Message(type: 0, #"[{"success":false,"error":"No window to fullscreen"}]"#), closes: false)
        #expect(refused.request == Self.i3Message(type: 0, "fullscreen toggle"))
        #expect(refused.said == ["input: sway refused fullscreen: No window to fullscreen"])
    }

    @Test func hyprlandGetsADispatchAndItsAnswerIsReadUntilItCloses() {
        let standIn = StandIn()
        let wire = HyprlandActionWire(socketPath: standIn.path)
        let done = Self.exchange(wire, .workspacePrevious, standIn: standIn, requestBytes: 22, answer: Array("ok".utf8), closes: true)
        #expect(String(decoding: done.request, as: UTF8.self) == "dispatch workspace e-1")
        #expect(done.said == [])
        let refused = Self.exchange(wire, .maximize, standIn: standIn, requestBytes: 21, answer: Array("Invalid dispatcher\n".utf8), closes: true)
        #expect(String(decoding: refused.request, as: UTF8.self) == "dispatch fullscreen 1")
        #expect(refused.said == ["input: hyprland refused maximize: Invalid dispatcher"])
    }

    @Test func niriGetsAnActionLineAndAnErrIsSaid() {
        let standIn = StandIn()
        let wire = NiriActionWire(socketPath: standIn.path)
        let request = #"{"Action":{"ToggleOverview":{}}}"# + "\n"
        let done = Self.exchange(wire, .overview, standIn: standIn, requestBytes: request.utf8.count,
                                 answer: Array(#"{"Ok":"Handled"}"#.utf8) + [10], closes: false)
        #expect(String(decoding: done.request, as: UTF8.self) == request)
        #expect(done.said == [])
        let refused = Self.exchange(wire, .closeWindow, standIn: standIn, requestBytes: 32,
                                    answer: Array(#"{"Err":"no focused window"}"#.utf8) + [10], closes: false)
        #expect(refused.said == ["input: niri refused close-window: no focused window"])
    }

    @Test func anAnswerPastItsBoundIsNotOneAndAnActionTheDesktopLacksSendsNothing() {
        let standIn = StandIn()
        let wire = NiriActionWire(socketPath: standIn.path)
        let flood = Self.exchange(wire, .overview, standIn: standIn, requestBytes: 33,
                                  answer: [UInt8](repeating: UInt8(ascii: "x"), count: 8_192), closes: false)
        #expect(flood.said == ["input: niri answered overview with more than 4 KiB: not an answer"])
        let channel = ActionChannel(wire: wire)
        var said: [String] = []
        channel.onReport = { said.append("\($0)") }
        channel.press(.desktop(.minimize))
        channel.press(.text("hi"))
        #expect(said == ["input: niri has no minimize", "input: niri IPC at \(standIn.path) takes desktop actions only, not text \"hi\""])
        #expect(channel.waitingActions == 0)
    }

    /// Work that blocks until the test lets it go, as a stuck X server holds XCB.
    struct StuckWire: ActionWire {
        var desktop: String { "x11" }
        var socketPath: String { ":0" }
        let gate: Int32
        func request(for action: DesktopAction) -> ActionRequest? {
            let gate = gate
            return .work {
                var byte: UInt8 = 0
                _ = read(gate, &byte, 1)
                return .done
            }
        }
        func answer(_ bytes: [UInt8], closed: Bool) -> ActionAnswer? { .done }
    }

    // A desktop that never answers costs a thread per action given up on: those still
    // running count against the waiting actions, so no more start until they end.
    @Test func threadsGivenUpOnStillCountUntilTheyEnd() {
        var gate: [Int32] = [0, 0]
        pipe(&gate)
        defer { close(gate[0]); close(gate[1]) }
        let channel = ActionChannel(wire: StuckWire(gate: gate[0]))
        var said: [String] = []
        channel.onReport = { said.append("\($0)") }
        let loop = EventLoop()
        loop.add(channel)
        let limit = InputChannelDefaults.maximumWaitingActions
        for _ in 0..<limit { channel.press(.desktop(.maximize)) }
        // Waits for the timeouts: events of the loop, bounded far above them.
        let end = PollScheduler.now() + .seconds(30)
        while channel.waitingActions > 0 && PollScheduler.now() < end {
            _ = loop.run(until: PollScheduler.now() + .milliseconds(50))
        }
        #expect(said == ["input: x11 did not answer maximize within 2 s"])
        channel.press(.desktop(.maximize))
        #expect(channel.waitingActions == 0)
        #expect(said.last == "input: x11 is behind: \(limit) actions wait for its answer, and more are dropped")
        // Let every thread go; once they have ended, actions start again.
        _ = [UInt8](repeating: 1, count: limit).withUnsafeBytes { write(gate[1], $0.baseAddress, limit) }
        let freed = PollScheduler.now() + .seconds(30)
        while channel.waitingActions == 0 && PollScheduler.now() < freed {
            channel.press(.desktop(.maximize))
            if channel.waitingActions == 0 { _ = loop.run(until: PollScheduler.now() + .milliseconds(20)) }
        }
        #expect(channel.waitingActions == 1)
    }
}
