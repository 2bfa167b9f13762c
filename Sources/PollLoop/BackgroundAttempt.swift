import CProcess
import Glibc

/// Work that may block for ever (a C library's connect and handshake: XCB's, libdbus's),
/// run on a thread of its own so that the loop never waits on it. The loop polls
/// ``fd``, which becomes readable when the work is done; ``take()`` then hands over its
/// value.
///
/// Whoever gives up on it (the peer did not answer in time) calls ``abandon()``: the
/// value, if it ever comes, is then given to `dispose` on the worker's thread, so a
/// connection made late is closed, not leaked. An attempt that never returns keeps its
/// one thread; ``isRunning`` tells the owner not to start another beside it.
public final class BackgroundAttempt<Value>: @unchecked Sendable {
    private enum State {
        case running
        case done(Value)
        case taken
        case abandoned
    }

    /// Readable once the work is done: a pipe's read end, written to by the thread.
    public let fd: Int32
    private let doneFD: Int32
    private var state = State.running
    /// The work returned (whether or not anyone still wanted its value).
    private var returned = false
    private var lock = pthread_mutex_t()
    private let work: () -> Value
    private let dispose: (Value) -> Void

    /// Starts `work` on a new thread. Returns nil when no thread or descriptor can be
    /// made; the caller then has nothing to wait for.
    public static func start(_ work: @escaping () -> Value, dispose: @escaping (Value) -> Void) -> BackgroundAttempt? {
        var ends: [Int32] = [-1, -1]
        guard cprocess_pipe_cloexec(&ends) == 0 else { return nil }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let attempt = BackgroundAttempt(fd: ends[0], doneFD: ends[1], work: work, dispose: dispose)
        return attempt.launch() ? attempt : nil
    }

    private init(fd: Int32, doneFD: Int32, work: @escaping () -> Value, dispose: @escaping (Value) -> Void) {
        self.fd = fd
        self.doneFD = doneFD
        self.work = work
        self.dispose = dispose
        pthread_mutex_init(&lock, nil)
    }

    /// Runs the work on a detached thread, which holds the attempt until the work returns.
    private func launch() -> Bool {
        detachedThread { [self] in finish(work()) }
    }

    deinit {
        close(fd)
        close(doneFD)
        pthread_mutex_destroy(&lock)
    }

    /// The work has not returned yet.
    public var isRunning: Bool {
        locked { !returned }
    }

    /// The value, once the work is done and not abandoned; nil before, and after the
    /// first take.
    public func take() -> Value? {
        locked {
            guard case let .done(value) = state else { return nil }
            state = .taken
            return value
        }
    }

    /// Nobody wants the value any more: disposed of now if it is here, else when it comes.
    public func abandon() {
        let late: Value? = locked {
            switch state {
            case let .done(value):
                state = .abandoned
                return value
            case .running:
                state = .abandoned
                return nil
            case .taken, .abandoned:
                return nil
            }
        }
        if let late { dispose(late) }
    }

    private func finish(_ value: Value) {
        let wanted: Bool = locked {
            returned = true
            guard case .running = state else { return false }
            state = .done(value)
            return true
        }
        if wanted {
            var one: UInt8 = 1
            _ = write(doneFD, &one, 1)
        } else {
            dispose(value)
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return body()
    }
}

/// What a thread runs, handed to it through `pthread_create`'s one pointer.
private final class ThreadBody {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

private func threadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().run()
    return nil
}

/// Starts `body` on a detached thread; false when none can be made.
private func detachedThread(_ body: @escaping () -> Void) -> Bool {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let retained = Unmanaged.passRetained(ThreadBody(body))
    var thread = pthread_t()
    let started = pthread_create(&thread, &attributes, threadMain, retained.toOpaque())
    if started != 0 { retained.release() }
    return started == 0
}
