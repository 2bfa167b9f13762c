import Glibc
import PollLoop
import TextWire
import TouchGestures

/// Hyprland's own touchpad workspace swipe, turned off while touchgest's rules bind its
/// finger count (`desktop-gestures = "yield"`), and on again when they no longer do or
/// touchgest stops.
///
/// Hyprland before 0.51 has one such swipe, in three options of `gestures:` (its wiki's
/// Variables page): `workspace_swipe` (on or off, default off), `workspace_swipe_fingers`
/// (default 3) and, from 0.41, `workspace_swipe_min_fingers` (that count or more). They
/// are read with `j/getoption` and set with `keyword` on the request socket, which answers
/// one request and closes. When the rules bind the swipe's own count, `workspace_swipe` is
/// turned off; when they bind only more fingers and the swipe takes that many too
/// (`min_fingers`), `workspace_swipe_min_fingers` is turned off instead, so the swipe of
/// its own count stays. Either is set back to what was read.
///
/// From 0.51 the swipe is a `gesture = 3, horizontal, workspace` line, which the socket
/// does not list (`unset` needs the line exactly as written): Hyprland answers "no such
/// option" for `gestures:workspace_swipe`, and touchgest says once that it cannot yield.
///
/// A `keyword` lasts until Hyprland reads its config again: `hyprctl reload` (or saving
/// hyprland.conf) undoes it, which is how a swipe left off by a touchgest that died is
/// brought back. One request is under way at a time, without blocking the loop: the
/// socket connects at once or not at all, and an answer that does not come within
/// ``InputChannelDefaults/actionAnswerTimeout`` is given up on (said, and tried again
/// at the next change of the rules).
public final class HyprlandSwipeYield: PollSource {
    /// Hyprland's workspace swipe as read from it.
    public struct Swipe: Equatable, Sendable {
        public var enabled: Bool
        public var fingers: Int
        /// `workspace_swipe_min_fingers`: `fingers` or more (false before Hyprland 0.41).
        public var orMore: Bool

        public init(enabled: Bool, fingers: Int, orMore: Bool) {
            self.enabled = enabled
            self.fingers = fingers
            self.orMore = orMore
        }
    }

    /// The options read, in order.
    static let options = ["gestures:workspace_swipe", "gestures:workspace_swipe_fingers", "gestures:workspace_swipe_min_fingers"]

    /// The option to turn off so that `swipe` takes none of `bound`; nil when it takes
    /// none already.
    public static func option(toTurnOff swipe: Swipe, bound: Set<Int>) -> String? {
        guard swipe.enabled else { return nil }
        if bound.contains(swipe.fingers) { return options[0] }
        if swipe.orMore && bound.contains(where: { $0 > swipe.fingers }) { return options[2] }
        return nil
    }

    private enum Request: Equatable {
        case read(String)
        case set(String, on: Bool)

        var bytes: [UInt8] {
            switch self {
            case let .read(option): Array("j/getoption \(option)".utf8)
            case let .set(option, on): Array("keyword \(option) \(on)".utf8)
            }
        }
    }

    private struct InFlight {
        var fd: Int32
        var request: Request
        var deadline: Timestamp
        var read: [UInt8] = []
    }

    public let socketPath: String
    public var onReport: ((HyprlandSwipeReport) -> Void)?
    /// The finger counts the rules in force bind, to be yielded.
    private var bound: Set<Int> = []
    /// The options read so far, for ``swipe``.
    private var values: [String: Int] = [:]
    /// The swipe as read, once all of it is.
    public private(set) var swipe: Swipe?
    /// The option touchgest turned off (or asked to, unanswered), to turn on again.
    public private(set) var turnedOff: String?
    private var inFlight: InFlight?
    /// Something failed since the rules last changed: nothing more is tried until they do.
    private var stopped = false
    /// Hyprland has no such options (0.51 and later): said once, never asked again.
    private var unsupported = false

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    deinit {
        if let inFlight { close(inFlight.fd) }
    }

    /// Hyprland's request socket, from `$HYPRLAND_INSTANCE_SIGNATURE`; nil when that is not set.
    public static func socketPath(environment: [String: String]) -> String? {
        guard let signature = environment["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty else { return nil }
        let folders = [environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : "\($0)/hypr/\(signature)" }, "/tmp/hypr/\(signature)"].compactMap { $0 }
        let folder = folders.first { access("\($0)/.socket.sock", F_OK) == 0 } ?? folders[0]
        return "\(folder)/.socket.sock"
    }

    /// The rules now in force bind `fingers` (empty: none, or `keep`): the swipe is read
    /// afresh unless touchgest holds it off, then turned off or on to suit.
    public func bind(fingers: Set<Int>) {
        guard fingers != bound || stopped else { return }
        bound = fingers
        stopped = false
        if turnedOff == nil && inFlight == nil {
            swipe = nil
            values = [:]
        }
        advance()
    }

    /// Whether a request waits for its answer (for tests).
    public var isWaiting: Bool { inFlight != nil }

    /// Sends the next request, if one is due and none is under way.
    private func advance() {
        guard inFlight == nil, !unsupported else { return }
        if let turnedOff {
            if let swipe, Self.option(toTurnOff: swipe, bound: bound) == turnedOff { return }
            if !stopped { send(.set(turnedOff, on: true)) }
            return
        }
        guard !bound.isEmpty, !stopped else { return }
        guard let swipe else {
            if let next = Self.options.first(where: { values[$0] == nil }) { send(.read(next)) }
            return
        }
        if let option = Self.option(toTurnOff: swipe, bound: bound) {
            turnedOff = option
            send(.set(option, on: false))
        }
    }

    private func send(_ request: Request) {
        switch UnixSocket.connect(socketPath, hello: request.bytes) {
        case let .failure(why):
            // Not sent: nothing to set back.
            if case .set(_, on: false) = request { turnedOff = nil }
            fail(request, "cannot reach hyprland at \(socketPath): \(why)")
        case let .success(fd):
            inFlight = InFlight(fd: fd, request: request, deadline: PollScheduler.now() + InputChannelDefaults.actionAnswerTimeout)
        }
    }

    /// `request` failed: said, and nothing more is tried until the rules change.
    private func fail(_ request: Request, _ why: String) {
        stopped = true
        if case .set(_, on: false) = request {
            // Whether Hyprland took it is not known: it is set back when touchgest stops.
            onReport?(.problem("\(why); its own workspace swipe may still be on"))
        } else if case let .set(option, on: true) = request {
            onReport?(.problem("\(why); its own workspace swipe stays off (\(option) false) until touchgest tries again at the next change of its rules, or 'hyprctl reload'"))
        } else {
            onReport?(.problem("\(why); its own workspace swipe is left as it is"))
        }
    }

    private func answered(_ request: Request, _ text: String) {
        switch request {
        case let .read(option):
            let json = try? JSONValue.parse(Array(text.utf8))
            if let value = json?["int"]?.number {
                values[option] = Int(value)
            } else if option == Self.options[2] {
                // Before Hyprland 0.41 the swipe takes its own count only.
                values[option] = 0
            } else {
                unsupported = true
                let said = text.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(utf8Bytes: 200)
                onReport?(.unsupported(option: option, answer: String(said)))
                return
            }
            if Self.options.allSatisfy({ values[$0] != nil }) {
                let read = Swipe(enabled: values[Self.options[0]] != 0, fingers: values[Self.options[1]] ?? 3, orMore: values[Self.options[2]] != 0)
                swipe = read
                onReport?(.read(read))
            }
        case let .set(option, on):
            let said = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard said == "ok" else {
                if !on { turnedOff = nil }
                return fail(request, "hyprland refused 'keyword \(option) \(on)': \(said.isEmpty ? "no answer" : String(said.prefix(utf8Bytes: 200)))")
            }
            if on {
                turnedOff = nil
                onReport?(.restored(option: option))
                // Read afresh before any later yield: the user may change it meanwhile.
                swipe = nil
                values = [:]
            } else if let swipe {
                onReport?(.yielded(option: option, swipe: swipe, bound: bound))
            }
        }
    }

    /// Sets back what touchgest turned off, waiting for Hyprland's answer up to
    /// `timeout` (``InputChannelDefaults/restoreTimeout``): for the end of touchgest, when
    /// the loop has stopped. A request still under way is dropped first.
    public func restoreBeforeExit(timeout: Duration = InputChannelDefaults.restoreTimeout) {
        if let inFlight {
            close(inFlight.fd)
            self.inFlight = nil
        }
        guard let option = turnedOff else { return }
        let request = Request.set(option, on: true)
        let fd: Int32
        switch UnixSocket.connect(socketPath, hello: request.bytes) {
        case let .failure(why):
            onReport?(.problem("cannot reach hyprland at \(socketPath) to turn its own workspace swipe back on: \(why); 'hyprctl reload' does"))
            return
        case let .success(connected): fd = connected
        }
        defer { close(fd) }
        let deadline = PollScheduler.now() + timeout
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: InputChannelDefaults.maximumAnswerBytes)
        while read.count <= InputChannelDefaults.maximumAnswerBytes {
            let left = deadline - PollScheduler.now()
            guard left > .zero else {
                onReport?(.problem("hyprland did not answer within \(shown(timeout)) as touchgest stopped: its own workspace swipe stays off (\(option) false) until 'hyprctl reload'"))
                return
            }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&entry, 1, milliseconds) >= 0 || errno == EINTR else { break }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { continue }
            guard count > 0 else { break }
            read += buffer.prefix(count)
        }
        answered(request, String(decoding: read, as: UTF8.self))
    }

    // MARK: PollSource

    public func collect(_ interest: inout PollInterest) {
        if let inFlight { interest.read(inFlight.fd) }
    }

    public var nextDeadline: Timestamp? { inFlight?.deadline }

    public func handleDeadlines() {
        guard let entry = inFlight, entry.deadline <= PollScheduler.now() else { return }
        close(entry.fd)
        inFlight = nil
        let what = switch entry.request {
        case let .read(option): "j/getoption \(option)"
        case let .set(option, on): "keyword \(option) \(on)"
        }
        fail(entry.request, "hyprland did not answer '\(what)' within \(shown(InputChannelDefaults.actionAnswerTimeout))")
    }

    public func handleReadable(_ fd: Int32) {
        guard var entry = inFlight, entry.fd == fd else { return }
        var buffer = [UInt8](repeating: 0, count: InputChannelDefaults.maximumAnswerBytes + 1 - entry.read.count)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { return }
        entry.read += buffer.prefix(max(0, count))
        if entry.read.count > InputChannelDefaults.maximumAnswerBytes {
            close(fd)
            inFlight = nil
            return fail(entry.request, "hyprland answered with more than \(shownBytes(InputChannelDefaults.maximumAnswerBytes)): not an answer")
        }
        guard count <= 0 else {
            inFlight = entry
            return
        }
        // Hyprland closes the socket after its answer.
        close(fd)
        inFlight = nil
        answered(entry.request, String(decoding: entry.read, as: UTF8.self))
        advance()
    }
}

/// What ``HyprlandSwipeYield`` did, for the log of `touchgest run`.
public enum HyprlandSwipeReport: Equatable, Sendable {
    /// The swipe as read from Hyprland.
    case read(HyprlandSwipeYield.Swipe)
    /// `option` is off while the rules bind `bound`.
    case yielded(option: String, swipe: HyprlandSwipeYield.Swipe, bound: Set<Int>)
    /// `option` is back on.
    case restored(option: String)
    /// This Hyprland has no `option` (0.51 and later): nothing is yielded.
    case unsupported(option: String, answer: String)
    /// A request failed, and what that leaves.
    case problem(String)
}

extension HyprlandSwipeReport: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .read(swipe):
            "desktop gestures: hyprland's own workspace swipe is \(swipe.enabled ? "on" : "off"), for \(swipe.fingers)\(swipe.orMore ? " or more" : "") fingers"
        case let .yielded(option, swipe, bound):
            "desktop gestures: turned hyprland's own \(option == HyprlandSwipeYield.options[0] ? "\(swipe.fingers)\(swipe.orMore ? "-or-more" : "")-finger workspace swipe off" : "workspace swipe of more than \(swipe.fingers) fingers off") "
                + "('keyword \(option) false') while rules bind \(bound.sorted().map(String.init).joined(separator: ", "))-finger swipes; "
                + "touchgest turns it back on when it stops or its rules no longer bind them; if touchgest dies first, 'hyprctl reload' does"
        case let .restored(option):
            "desktop gestures: turned hyprland's own workspace swipe back on ('keyword \(option) true')"
        case let .unsupported(option, answer):
            "desktop gestures: cannot yield hyprland's own swipes: it answered '\(answer)' for \(option); "
                + "from Hyprland 0.51 they are 'gesture =' lines in hyprland.conf, which its socket does not list: remove the ones with the fingers your rules bind"
        case let .problem(why):
            "desktop gestures: \(why)"
        }
    }
}
