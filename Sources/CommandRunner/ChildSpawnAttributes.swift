import Glibc

/// The spawn attributes of every command touchgest starts (rule commands and stream
/// commands): its own process group, so that stopping it stops whatever it started too;
/// an empty signal mask and default handling of the signals the daemon handles or ignores
/// itself, whatever the daemon set (ignored signals are otherwise inherited across exec).
public final class ChildSpawnAttributes {
    /// For `posix_spawn`.
    public let pointer: UnsafeMutablePointer<posix_spawnattr_t>

    public init() {
        pointer = .allocate(capacity: 1)
        posix_spawnattr_init(pointer)
        posix_spawnattr_setflags(pointer, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(pointer, 0)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(pointer, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(pointer, &defaults)
    }

    deinit {
        posix_spawnattr_destroy(pointer)
        pointer.deallocate()
    }
}
