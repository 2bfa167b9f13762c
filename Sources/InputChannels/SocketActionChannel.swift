import Glibc
import InputActions
import PollLoop
import TextWire
import TouchGestures

/// Desktop actions through a desktop's IPC socket (``ActionWire``): sway and i3, Hyprland,
/// niri. Each action connects (at once or not at all, never waiting in the loop), sends
/// its request, and reads the answer as the loop finds it readable; a refusal, a desktop
/// that is not there or one that does not answer within
/// ``InputChannelDefaults/actionAnswerTimeout`` is said, once per cause. At most
/// ``InputChannelDefaults/maximumWaitingActions`` wait for answers at once; an answer
/// past ``InputChannelDefaults/maximumAnswerBytes`` is not one.
///
/// It takes desktop actions only: keys, text and buttons go through the desktop's input
/// channel beside it.
public final class SocketActionChannel: InputChannel {
    private struct Waiting {
        var fd: Int32
        var action: DesktopAction
        var deadline: Timestamp
        var read: [UInt8] = []
    }

    private let wire: any ActionWire
    private var waiting: [Waiting] = []
    private var lastProblem: String?
    public var onReport: ((InputChannelReport) -> Void)?
    public var name: String { "\(wire.desktop) IPC at \(wire.socketPath)" }

    init(wire: any ActionWire) {
        self.wire = wire
    }

    deinit {
        for entry in waiting { close(entry.fd) }
    }

    /// Nothing to connect before the first action: each has a socket of its own.
    public func start() {}

    public func press(_ action: InputAction) {
        guard case let .desktop(desktopAction) = action else {
            return problem("\(name) takes desktop actions only, not \(action)")
        }
        guard let request = wire.request(for: desktopAction) else {
            return problem("\(wire.desktop) has no \(desktopAction)")
        }
        guard waiting.count < InputChannelDefaults.maximumWaitingActions else {
            return problem("\(wire.desktop) is behind: \(InputChannelDefaults.maximumWaitingActions) actions wait for its answer, and more are dropped")
        }
        switch UnixSocket.connect(wire.socketPath, hello: request) {
        case let .failure(why):
            problem("cannot reach \(wire.desktop) at \(wire.socketPath) for \(desktopAction): \(why)")
        case let .success(fd):
            waiting.append(Waiting(fd: fd, action: desktopAction, deadline: PollScheduler.now() + InputChannelDefaults.actionAnswerTimeout))
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
        var buffer = [UInt8](repeating: 0, count: InputChannelDefaults.maximumAnswerBytes + 1 - waiting[index].read.count)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { return }
        waiting[index].read += buffer.prefix(max(0, count))
        let action = waiting[index].action
        if waiting[index].read.count > InputChannelDefaults.maximumAnswerBytes {
            finish(at: index)
            return problem("\(wire.desktop) answered \(action) with more than \(shownBytes(InputChannelDefaults.maximumAnswerBytes)): not an answer")
        }
        switch wire.answer(waiting[index].read, closed: count <= 0) {
        case nil: break
        case .done?: finish(at: index)
        case let .refused(why)?:
            finish(at: index)
            problem("\(wire.desktop) refused \(action): \(why.prefix(utf8Bytes: maximumOutsideTextBytes))")
        }
    }

    @discardableResult
    private func finish(at index: Int) -> Waiting {
        let entry = waiting.remove(at: index)
        close(entry.fd)
        return entry
    }

    /// Says once per cause why an action was not done.
    private func problem(_ why: String) {
        guard why != lastProblem else { return }
        lastProblem = why
        onReport?(.cannotPress(why))
    }
}
