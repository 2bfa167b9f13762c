import Glibc
import InputActions
import PollLoop
import TextWire
import TouchGestures

/// Desktop actions through a desktop's own interface (``ActionWire``): the IPC sockets of
/// sway and i3, Hyprland and niri, and EWMH on X11. On a socket, each action connects (at
/// once or not at all, never waiting in the loop), sends its request, and reads the answer
/// as the loop finds it readable; work that blocks in a C library runs on a thread of its
/// own (``BackgroundAttempt``), whose end the loop reads the same way. A refusal, a desktop
/// that is not there or one that does not answer within
/// ``InputChannelDefaults/actionAnswerTimeout`` is said, once per cause. At most
/// ``InputChannelDefaults/maximumWaitingActions`` wait for answers at once; an answer
/// past ``InputChannelDefaults/maximumAnswerBytes`` is not one.
///
/// It takes desktop actions only: keys, text and buttons go through the desktop's input
/// channel beside it.
public final class ActionChannel: InputChannel {
    private struct Waiting {
        var fd: Int32
        var action: DesktopAction
        var deadline: Timestamp
        var read: [UInt8] = []
        /// The thread doing the action, for work that blocks; nil on a socket.
        var work: BackgroundAttempt<ActionAnswer>?
    }

    private let wire: any ActionWire
    private var waiting: [Waiting] = []
    /// Threads given up on that still run (a stuck X server holds them): they count
    /// against ``InputChannelDefaults/maximumWaitingActions`` until they end, so a desktop
    /// that never answers cannot make touchgest start threads without end.
    private var abandoned: [BackgroundAttempt<ActionAnswer>] = []
    private var lastProblem: String?
    public var onReport: ((InputChannelReport) -> Void)?
    public var name: String {
        wire is X11ActionWire ? "EWMH messages to the window manager on the X server at \(wire.socketPath)" : "\(wire.desktop) IPC at \(wire.socketPath)"
    }

    init(wire: any ActionWire) {
        self.wire = wire
    }

    deinit {
        for index in waiting.indices.reversed() { finish(at: index) }
    }

    /// Why the desktop cannot do `action`; nil when it can.
    func lacks(_ action: DesktopAction) -> String? {
        wire.request(for: action) == nil ? "\(wire.desktop) has no \(action)" : nil
    }

    /// Nothing to connect before the first action: each has a socket of its own.
    public func start() {}

    public func press(_ action: InputAction) {
        guard case let .desktop(desktopAction) = action else {
            return problem("\(name) takes desktop actions only, not \(action)")
        }
        guard let request = wire.request(for: desktopAction) else { return problem(lacks(desktopAction)!) }
        abandoned.removeAll { !$0.isRunning }
        guard waiting.count + abandoned.count < InputChannelDefaults.maximumWaitingActions else {
            return problem("\(wire.desktop) is behind: \(InputChannelDefaults.maximumWaitingActions) actions wait for its answer, and more are dropped")
        }
        let deadline = PollScheduler.now() + InputChannelDefaults.actionAnswerTimeout
        switch request {
        case let .work(work):
            guard let attempt = BackgroundAttempt.start(work, dispose: { _ in }) else {
                return problem("cannot start a thread for \(desktopAction)")
            }
            waiting.append(Waiting(fd: attempt.fd, action: desktopAction, deadline: deadline, work: attempt))
        case let .bytes(bytes):
            switch UnixSocket.connect(wire.socketPath, hello: bytes) {
            case let .failure(why):
                problem("cannot reach \(wire.desktop) at \(wire.socketPath) for \(desktopAction): \(why)")
            case let .success(fd):
                waiting.append(Waiting(fd: fd, action: desktopAction, deadline: deadline))
            }
        }
    }

    /// How many actions wait for their answers (for tests).
    var waitingActions: Int { waiting.count }

    // MARK: PollSource

    public func collect(_ interest: inout PollInterest) {
        for entry in waiting { interest.read(entry.fd) }
    }

    public var nextDeadline: Timestamp? { waiting.lazy.map(\.deadline).min() }

    public func handleDeadlines() {
        let now = PollScheduler.now()
        while let index = waiting.firstIndex(where: { $0.deadline <= now }) {
            let entry = finish(at: index)
            problem("\(wire.desktop) did not answer \(entry.action) within \(shown(InputChannelDefaults.actionAnswerTimeout))")
        }
    }

    public func handleReadable(_ fd: Int32) {
        guard let index = waiting.firstIndex(where: { $0.fd == fd }) else { return }
        if let work = waiting[index].work {
            guard let answer = work.take() else { return }
            return settle(answer, at: index)
        }
        var buffer = [UInt8](repeating: 0, count: InputChannelDefaults.maximumAnswerBytes + 1 - waiting[index].read.count)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { return }
        waiting[index].read += buffer.prefix(max(0, count))
        let action = waiting[index].action
        if waiting[index].read.count > InputChannelDefaults.maximumAnswerBytes {
            finish(at: index)
            return problem("\(wire.desktop) answered \(action) with more than \(shownBytes(InputChannelDefaults.maximumAnswerBytes)): not an answer")
        }
        if let answer = wire.answer(waiting[index].read, closed: count <= 0) { settle(answer, at: index) }
    }

    private func settle(_ answer: ActionAnswer, at index: Int) {
        let entry = finish(at: index)
        if case let .refused(why) = answer {
            problem("\(wire.desktop) refused \(entry.action): \(why.prefix(utf8Bytes: maximumOutsideTextBytes))")
        }
    }

    /// The action is over, answered or not: its socket is closed, or its thread, if it
    /// still runs, is left to end by itself.
    @discardableResult
    private func finish(at index: Int) -> Waiting {
        let entry = waiting.remove(at: index)
        if let work = entry.work {
            work.abandon()
            if work.isRunning { abandoned.append(work) }
        } else {
            close(entry.fd)
        }
        return entry
    }

    /// Says once per cause why an action was not done.
    private func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.cannotPress(why))
    }
}
