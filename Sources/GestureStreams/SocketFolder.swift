import Glibc

/// Whether a socket's folder can be trusted to hold the daemon's socket: `touchgest
/// events` connects only where no other user could have put a socket of their own.
public enum SocketFolder {
    /// Why the folder of the socket at `path` cannot be trusted, or nil: it must be a
    /// folder owned by `user` and writable by no one else. Whoever can write a folder can
    /// put a socket there, and would then be sent, or could feed, the gestures.
    public static func problem(forSocketAt path: String, user: uid_t = getuid()) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let folder = parts.isEmpty ? "." : parts.joined(separator: "/").isEmpty ? "/" : parts.joined(separator: "/")
        var info = stat()
        guard stat(folder, &info) == 0 else { return nil }  // connecting says what is missing
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(folder) is not a folder" }
        if info.st_uid != user {
            return "\(folder) belongs to user \(info.st_uid), not to you (\(user)): another user could have put a socket there; give --events-socket in a folder of your own"
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            return "\(folder) is writable by others (mode \(mode)): another user could have put a socket there; chmod go-w '\(folder)', or give --events-socket in a folder of your own"
        }
        return nil
    }
}
