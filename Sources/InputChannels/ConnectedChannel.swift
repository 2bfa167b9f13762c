import Glibc
import InputActions
import PollLoop
import TextWire
import TouchGestures

/// What the channels with a connection to their desktop share: its life (``Reconnecting``
/// under ``InputChannelDefaults/reconnect``), its outage said once (``ChannelReporting``),
/// and the presses waiting for it (``ChannelOutbox``), written without blocking as the
/// socket takes them. A desktop that takes none for ``InputChannelDefaults/writeStall``
/// while they wait is not reading: its connection is dropped, with what waits for it.
///
/// A subclass names itself (``name``), says whether a link can press an action
/// (``check(_:on:)``), encodes it (``encode(_:on:)``), reads its descriptor
/// (``handleReadable(_:)``) and drops what belonged to a connection (``forget()``).
public class ConnectedChannel<Link>: InputChannel {
    let life: Reconnecting<Link>
    private var reporting = ChannelReporting()
    private var outbox = ChannelOutbox()
    /// The descriptor a link reads and is written to.
    private let socket: (Link) -> Int32
    /// The desktop in messages: `the compositor at PATH`, `the X server at :0`.
    private let peer: String
    /// What presses wait for, in messages: `the compositor`, `the X server`.
    private let waitsFor: String
    /// What a desktop that stops reading does not read: `its socket`, `its connection`.
    private let readsFrom: String

    public var name: String { "" }
    public var onReport: ((InputChannelReport) -> Void)? {
        get { reporting.onReport }
        set { reporting.onReport = newValue }
    }

    init(open: Opener<Link>, close: @escaping (Link) -> Void, socket: @escaping (Link) -> Int32, peer: String, waitsFor: String,
         readsFrom: String, timedOut: String, noThread: String = "cannot start a thread to connect") {
        self.socket = socket
        self.peer = peer
        self.waitsFor = waitsFor
        self.readsFrom = readsFrom
        life = Reconnecting(policy: InputChannelDefaults.reconnect, connectTimeout: InputChannelDefaults.connectTimeout, open: open,
                            close: close, descriptors: { link, read in read(socket(link)) }, timedOut: timedOut, noThread: noThread)
        life.onConnected = { [unowned self] in reporting.reached(name, at: PollScheduler.now()) }
        life.onLost = { [unowned self] why, _, _ in
            outbox.removeAll()
            forget()
            reporting.lost(why, at: PollScheduler.now())
        }
    }

    public func start() { life.start() }

    /// Why `link` cannot press `action`; nil when it can.
    func check(_ action: InputAction, on link: Link) -> String? { "\(name) cannot press \(action)" }

    /// The requests of `piece` on `link`: an action ``check(_:on:)`` allowed, or a piece of
    /// its text.
    func encode(_ piece: InputAction, on link: Link) -> [UInt8] { [] }

    /// What belonged to the connection, dropped with it.
    func forget() {}

    /// Bytes of requests waiting for the desktop (for tests: what the channel holds).
    var waitingBytes: Int { outbox.waitingBytes }

    // MARK: PollSource

    /// The link's descriptor, or the attempt's, to read (steadily: each stays open under
    /// its number while read), and the link's to write while requests wait.
    public func collect(_ interest: inout PollInterest) {
        life.collect(&interest)
        if let link = life.connected, !outbox.isEmpty { interest.write(socket(link)) }
    }

    public var nextDeadline: Timestamp? {
        let own = life.isConnected ? outbox.stallDeadline : life.deadline
        return [own, reporting.stableDeadline].compactMap { $0 }.min()
    }

    public func handleDeadlines() {
        let now = PollScheduler.now()
        reporting.checkStable(at: now)
        guard life.isConnected else { return life.handleDeadlines() }
        if let stall = outbox.stallDeadline, stall <= now {
            lose("\(peer) took no request for \(shown(InputChannelDefaults.writeStall)): it does not read \(readsFrom)")
        }
    }

    /// What the subclass reads; the link's descriptor is readable.
    public func handleReadable(_ fd: Int32) {}

    public func handleWritable(_ fd: Int32) { flush() }

    // MARK: Pressing

    /// Presses `action` once what waits before it has gone, or says why it cannot.
    public func press(_ action: InputAction) {
        guard let link = life.connected else { return problem("\(name) is not connected") }
        if let why = check(action, on: link) { return problem(why) }
        guard outbox.enqueue(action, at: PollScheduler.now()) else {
            return problem("\(name) is behind: \(InputChannelDefaults.maximumWaitingPresses) presses wait for \(waitsFor), and more are dropped")
        }
        flush()
    }

    /// Encodes and writes what waits, as much as the socket and the wake-up's budget take.
    func flush() {
        guard let link = life.connected else { return }
        let fd = socket(link)
        let pumped = outbox.pump(now: PollScheduler.now(), encode: { encode($0, on: link) }) { buffer in
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
