import Glibc
import Synchronization
import TouchGestures

/// Something the event loop waits on: descriptors to read and to write, and a deadline.
public protocol PollSource: AnyObject {
    /// Adds what the source waits on now to `interest`: the descriptors to read, and to
    /// write only those with bytes waiting to go out, so an idle source causes no
    /// wake-up. Asked once before every wait; it adds in place, so a wake-up allocates
    /// nothing for it.
    func collect(_ interest: inout PollInterest)
    /// One of the descriptors collected for reading is readable.
    func handleReadable(_ fd: Int32)
    /// One of the descriptors collected for writing can take more bytes, or its reader
    /// went away.
    func handleWritable(_ fd: Int32)
    /// The next moment the source wants to run without input, if any. A source with work
    /// left over (events its library queued) answers with the clock as it is asked
    /// (`PollScheduler.now()`): the loop then calls it without sleeping.
    var nextDeadline: Timestamp? { get }
    /// The clock passed ``nextDeadline``.
    func handleDeadlines()
    /// Why the source cannot go on (its descriptor broke), once it cannot; nil while it
    /// works. The loop checks it after each of its calls to ``handleReadable(_:)``,
    /// ``handleWritable(_:)`` and ``handleDeadlines()``, and stops with this as its
    /// failure; a source breaks in those calls, where it reads.
    var failure: String? { get }
}

extension PollSource {
    /// Sources that cannot break never fail.
    public var failure: String? { nil }
    /// Most sources only read.
    public func handleWritable(_ fd: Int32) {}

    /// The descriptors the source reads now (for tests and a source's own drain loop).
    public var pollDescriptors: [Int32] {
        var interest = PollInterest()
        collect(&interest)
        return interest.descriptors(for: Int16(POLLIN))
    }

    /// The descriptors the source writes now.
    public var writeDescriptors: [Int32] {
        var interest = PollInterest()
        collect(&interest)
        return interest.descriptors(for: Int16(POLLOUT))
    }
}

/// What the sources wait on before one wait: poll entries, one per descriptor with its
/// events combined (poll refuses more entries than RLIMIT_NOFILE), and which source each
/// entry belongs to; and the descriptors read steadily. The loop keeps one across
/// wake-ups, so its buffers are reused.
public struct PollInterest {
    /// The entries, in the order the sources added them.
    public private(set) var entries: [pollfd] = []
    /// The index of each entry's source.
    private(set) var owners: [Int] = []
    /// The descriptors read steadily (``readSteadily(_:serial:)``), each with the index of
    /// its source and its serial: one array, so that adding one is one append, and the
    /// loop sees a change with one comparison.
    @usableFromInline var steadyEntries: [SteadyEntry] = []
    /// The source adding now, and where its entries begin.
    @usableFromInline var owner = 0
    private var ownerStart = 0

    /// One descriptor read steadily: its number, its source's index and its serial.
    @usableFromInline
    struct SteadyEntry: Equatable {
        @usableFromInline var fd: Int32
        @usableFromInline var owner: Int
        @usableFromInline var serial: UInt64

        @inlinable
        init(fd: Int32, owner: Int, serial: UInt64) {
            self.fd = fd
            self.owner = owner
            self.serial = serial
        }
    }

    /// The descriptors read steadily, in the order the sources added them.
    public var steady: [Int32] { steadyEntries.map(\.fd) }
    /// Their serials, in the same order.
    var steadySerials: [UInt64] { steadyEntries.map(\.serial) }

    public init() {}

    /// `fd` is to be read.
    public mutating func read(_ fd: Int32) {
        entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        owners.append(owner)
    }

    /// `fd` is to be read, and stays open under this number until the source stops
    /// collecting it or collects it with another `serial`: libinput's descriptor, a
    /// signalfd, an inotify, a listening socket, a connection. The loop keeps such
    /// descriptors in an epoll set, registered once, instead of handing each to poll at
    /// every wait (which costs the kernel a wait-queue entry per descriptor per wake-up,
    /// and a second system call whenever the set is ready).
    ///
    /// A descriptor closed leaves the set silently, so one closed and another opened
    /// under the same number between two waits would go unwatched: say, one bus link of
    /// a source losing its connection while the source's other link connects. A source
    /// whose descriptors may be replaced gives each new one a serial from
    /// ``DescriptorSerial/next()`` (a connection's source has it from ``Reconnecting``,
    /// made with each try and connection), and the loop registers it afresh; one it closes and
    /// never replaces needs none. A descriptor that may be closed by someone else is
    /// collected with ``read(_:)``.
    // Asked by most sources at every wake-up, from their own modules: inlinable, it is an
    // append there, not a call.
    @inlinable
    public mutating func readSteadily(_ fd: Int32, serial: UInt64 = 0) {
        steadyEntries.append(SteadyEntry(fd: fd, owner: owner, serial: serial))
    }

    /// `fd` has bytes waiting to go out: added to the source's poll entry for reading it,
    /// if it has one; a descriptor read steadily gets a poll entry for writing alone.
    public mutating func write(_ fd: Int32) {
        if let index = entries[ownerStart...].lastIndex(where: { $0.fd == fd }) {
            entries[index].events |= Int16(POLLOUT)
            return
        }
        entries.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0))
        owners.append(owner)
    }

    /// The collected descriptors that wait for `events`; to read, the steady ones first.
    public func descriptors(for events: Int16) -> [Int32] {
        (events & Int16(POLLIN) != 0 ? steady : []) + entries.filter { $0.events & events != 0 }.map(\.fd)
    }

    /// Empties it for the next wake-up, keeping its room.
    mutating func reset() {
        // Most wake-ups collect steady descriptors only: emptying an empty array still
        // makes it a buffer of its own (an allocation and a free), so it is left alone.
        if !entries.isEmpty {
            entries.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
        }
        steadyEntries.removeAll(keepingCapacity: true)
        owner = 0
        ownerStart = 0
    }

    /// What follows is added by the source at `index`.
    mutating func begin(source index: Int) {
        owner = index
        ownerStart = entries.count
    }
}

extension PollInterest {
    /// The owner of the entry for the loop's epoll set of steady descriptors.
    static let steadySetOwner = -1

    /// Adds the entry for the loop's epoll set of steady descriptors.
    mutating func readSteadySet(_ fd: Int32) {
        entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        owners.append(Self.steadySetOwner)
    }

    /// Waits on the entries with poll(2), which writes their `revents`.
    mutating func wait(milliseconds timeout: Int32) -> Int32 {
        let count = nfds_t(entries.count)
        return entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, count, timeout) }
    }
}

/// Serials for descriptors read steadily (``PollInterest/readSteadily(_:serial:)``), from
/// one count for the whole process: a serial per object would let two objects of one
/// source (its two bus links) give the descriptor one closes and the one the other opens
/// under the same number the same serial, and the new one would go unwatched.
public enum DescriptorSerial {
    private static let last = Atomic<UInt64>(0)

    /// A serial no descriptor has had.
    public static func next() -> UInt64 {
        last.add(1, ordering: .relaxed).newValue
    }
}
