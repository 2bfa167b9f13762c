import PollLoop
import TouchGestures

/// Reads the fingers on touchpads beside libinput: one libevdev reader per touchpad node
/// libinput opened, read-only and never grabbed, so the desktop still gets every event.
///
/// One more source of the one poll loop: a descriptor per touchpad, no thread, no timer,
/// so no wake-up while the fingers rest. Frames reach ``handler`` as indirect touches in
/// millimetres (see ``ContactDevice``).
public final class ContactReader: PollSource {
    /// Called with every frame that changed a touch, in order.
    @exclusivity(unchecked) public var handler: ((TouchEvent) -> Void)?

    // Read by the loop at every wake-up (collect, nextDeadline), on its one thread, and no
    // access to them overlaps another: no dynamic exclusivity check.
    @exclusivity(unchecked) private var devices: [Int32: ContactDevice] = [:]
    private var nextTouchID = ContactDefaults.firstTouchID

    /// Makes a reader with no devices.
    public init() {}

    /// The devices being read, by node.
    public var nodes: [String] { devices.values.map(\.node).sorted() }

    /// Whether device `id`'s fingers are being read.
    public func isReading(_ id: DeviceID) -> Bool {
        devices.values.contains { $0.id == id }
    }

    /// Starts reading the touchpad at `node` as device `id`. `size` is the adapter's size of
    /// the pad in millimetres, used when its axes report no resolution.
    public func open(node: String, device id: DeviceID, size: Size?) throws(ContactError) {
        let device = try ContactDevice(node: node, id: id, size: size) { [unowned self] in
            defer { nextTouchID += 1 }
            return nextTouchID
        }
        devices[device.fd] = device
    }

    /// Stops reading device `id`; touches still down end as cancelled, so no recognizer
    /// waits for a lift that will never come.
    public func close(_ id: DeviceID, at time: Timestamp) {
        guard let (fd, device) = devices.first(where: { $0.value.id == id }) else { return }
        devices[fd] = nil
        if let cancelled = device.cancelAll(at: time) { handler?(cancelled) }
    }

    // MARK: PollSource

    public func collect(_ interest: inout PollInterest) {
        // Asked at every wake-up, and reading no pad's fingers is the common case: a loop
        // over an empty dictionary still retains and releases its storage.
        guard !devices.isEmpty else { return }
        for fd in devices.keys { interest.read(fd) }
    }

    public func handleReadable(_ fd: Int32) {
        guard let device = devices[fd] else { return }
        let alive = device.read { handler?($0) }
        // A node that went away (unplugged) ends its touches; libinput reports the removal.
        if !alive { close(device.id, at: PollScheduler.now()) }
    }

    public var nextDeadline: Timestamp? { nil }

    public func handleDeadlines() {}
}
