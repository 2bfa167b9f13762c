import Glibc
import InputActions
import PollLoop
import TextWire
import TouchGestures

/// A channel's connection to its desktop: its life (``Reconnecting`` under
/// ``InputChannelDefaults/reconnect``), its outage said once (``ChannelReporting``), and
/// the presses waiting for it (``ChannelOutbox``), written without blocking as the socket
/// takes them. A desktop that takes none for ``InputChannelDefaults/writeStall`` while they
/// wait is not reading: its connection is dropped, with what waits for it.
final class ChannelConnection<Link> {
    let life: Reconnecting<Link>
    var reporting = ChannelReporting()
    private var outbox = ChannelOutbox()
    /// The descriptor a link reads and is written to.
    private let socket: (Link) -> Int32
    /// The desktop in messages: `the compositor at PATH`, `the X server at :0`.
    private let peer: String
    /// What presses wait for, in messages: `the compositor`, `the X server`.
    private let waitsFor: String
    /// What a desktop that stops reading does not read: `its socket`, `its connection`.
    private let readsFrom: String

    /// The channel's name in messages (a subclass may name itself).
    var name: () -> String = { "" }
    /// The requests of a press ``press(_:check:)`` allowed, or of a piece of its text.
    var encode: (Link, InputAction) -> [UInt8] = { _, _ in [] }
    /// The connection is gone: the channel drops what belonged to it.
    var onLost: () -> Void = {}

    init(open: Opener<Link>, close: @escaping (Link) -> Void, socket: @escaping (Link) -> Int32, peer: String, waitsFor: String,
         readsFrom: String, timedOut: String, noThread: String = "cannot start a thread to connect") {
        self.socket = socket
        self.peer = peer
        self.waitsFor = waitsFor
        self.readsFrom = readsFrom
        life = Reconnecting(policy: InputChannelDefaults.reconnect, connectTimeout: InputChannelDefaults.connectTimeout, open: open,
                            close: close, descriptors: { link, read in read(socket(link)) }, timedOut: timedOut, noThread: noThread)
        life.onConnected = { [unowned self] in reporting.reached(name(), at: PollScheduler.now()) }
        life.onLost = { [unowned self] why, _, _ in
            outbox.removeAll()
            onLost()
            reporting.lost(why, at: PollScheduler.now())
        }
    }

    /// Bytes of requests waiting for the desktop (for tests: what the channel holds).
    var waitingBytes: Int { outbox.waitingBytes }

    /// The link's descriptor, or the attempt's, to read (steadily: each stays open under
    /// its number while read), and the link's to write while requests wait.
    func collect(_ interest: inout PollInterest) {
        life.collect(&interest)
        if let link = life.connected, !outbox.isEmpty { interest.write(socket(link)) }
    }

    var nextDeadline: Timestamp? {
        let own = life.isConnected ? outbox.stallDeadline : life.deadline
        return [own, reporting.stableDeadline].compactMap { $0 }.min()
    }

    func handleDeadlines() {
        let now = PollScheduler.now()
        reporting.checkStable(at: now)
        guard life.isConnected else { return life.handleDeadlines() }
        if let stall = outbox.stallDeadline, stall <= now {
            lose("\(peer) took no request for \(shown(InputChannelDefaults.writeStall)): it does not read \(readsFrom)")
        }
    }

    /// Presses `action` once what waits before it has gone, or says why it cannot:
    /// `check` says why the link cannot press it, nil when it can.
    func press(_ action: InputAction, check: (Link) -> String?) {
        guard let link = life.connected else { return problem("\(name()) is not connected") }
        if let why = check(link) { return problem(why) }
        guard outbox.enqueue(action, at: PollScheduler.now()) else {
            return problem("\(name()) is behind: \(InputChannelDefaults.maximumWaitingPresses) presses wait for \(waitsFor), and more are dropped")
        }
        flush()
    }

    /// Encodes and writes what waits, as much as the socket and the wake-up's budget take.
    func flush() {
        guard let link = life.connected else { return }
        let fd = socket(link)
        let pumped = outbox.pump(now: PollScheduler.now(), encode: { encode(link, $0) }) { buffer in
            send(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        }
        if case .broken = pumped { lose("\(peer) closed the connection") }
    }

    /// The connection is gone (or never came), for `why`: what waited for it is dropped,
    /// the loss is said once per outage, and the next try waits.
    func lose(_ why: String) {
        life.lose(why)
    }

    /// Says once per cause why an action could not be pressed.
    func problem(_ why: String) {
        reporting.problem(why)
    }
}
