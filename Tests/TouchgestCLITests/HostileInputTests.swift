import Glibc
import TestSupport
import Testing

/// What a stuck stream script, a squatted or hostile events socket, and patterns built to
/// be slow can do to the command-line tool (issue 24): each ends with a clear error, soon.
@Suite struct HostileInputTests {
    static let asRoot = getuid() == 0 ? "" : "unshare -r "

    /// `replay --run` with a stream command that never reads: it is stopped as the daemon
    /// stops a stuck stream, and the replay fails naming it, instead of waiting for ever.
    @Test func replayStopsAStreamThatNeverReadsAndFails() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.zoom]
            gesture = "pinch"
            stream = "exec sleep 600"
            """)
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --run --allow-root --rules \(folder)/rules.toml",
                               prefix: Self.asRoot)
        #expect(result.status == 1, "\(result.stderr)")
        let stuck = result.stderr.split(separator: "\n").filter { $0.hasPrefix("touchgest: the stream of rule 'zoom'") }
        #expect(stuck.count == 1, "\(result.stderr)")
        // The tour's pinch makes more lines than the one-page pipe (4,096 bytes) holds: at
        // about 290 bytes a line, 14 go in.
        #expect(stuck == ["touchgest: the stream of rule 'zoom' took no input for 2.0 seconds and was stopped, as touchgest run stops a stuck stream (14 lines were sent; it was killed by signal 15)"],
                "\(result.stderr)")
    }

    /// A command Linux refuses to start (one argument over 128 KiB, E2BIG): the daemon
    /// logs it, and replay --run says it and fails instead of claiming it ran.
    @Test func replayNamesACommandThatCouldNotStartAndFails() {
        let folder = temporaryFolder()
        writeText("\(folder)/rules.toml", """
            [rule.zoom]
            gesture = "pinch"
            command = "echo \(String(repeating: "x", count: 140_000))"
            """)
        let result = touchgest("replay \(packageRoot)/examples/tour.tgrec --run --allow-root --rules \(folder)/rules.toml",
                               prefix: Self.asRoot)
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0 == "touchgest: rule zoom: command could not start: Argument list too long" },
                "\(result.stderr)")
    }

    /// Runs `touchgest events` against a socket at `folder/events.sock` that a Python
    /// stand-in serves: it accepts one client and sends `payload` (Python bytes), then
    /// closes. Returns the client's result.
    func events(_ folder: String, payload: String) -> Result {
        writeText("\(folder)/serve.py", """
            import socket, subprocess, sys
            path = sys.argv[1]
            server = socket.socket(socket.AF_UNIX)
            server.bind(path)
            server.listen(1)
            client = subprocess.Popen(sys.argv[2:] + ["events", "--events-socket", path])
            connection, _ = server.accept()
            try:
                connection.sendall(\(payload))
            except OSError:
                pass
            connection.close()
            sys.exit(client.wait(timeout=60))
            """)
        return run("/usr/bin/python3", "\(folder)/serve.py \(folder)/events.sock \(touchgestBinary)")
    }

    @Test func controlCharactersOnTheSocketNeverReachTheTerminal() {
        let folder = temporaryFolder()
        let result = events(folder, payload: #"b'{"rule":"a","x":"\x1b]0;owned\x07"}\n'"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"rule":"a","x":"\x1b]0;owned\x07"}"# + "\n")
    }

    /// A line without end: the client gives up at the bound, at once, instead of
    /// searching a growing buffer for a newline after every read.
    @Test func aLineWithoutEndIsRefusedAtTheBound() {
        let folder = temporaryFolder()
        let result = events(folder, payload: "b'x' * (64 << 20)")
        #expect(result.status == 1)
        #expect(result.stderr == "touchgest: error: \(folder)/events.sock sent a line longer than 65536 bytes; it is not touchgest run's events socket\n")
    }

    @Test func aSocketInAFolderOthersCanWriteIsRefused() {
        let folder = temporaryFolder() + "/shared"
        mkdir(folder, 0o777)
        chmod(folder, 0o777)
        let result = touchgest("events --events-socket \(folder)/events.sock")
        #expect(result.status == 1)
        #expect(result.stderr == "touchgest: error: will not connect to \(folder)/events.sock: \(folder) is writable by others (mode 777): another user could have put a socket there; chmod go-w '\(folder)', or give --events-socket in a folder of your own\n")
    }

    // Only root can give a folder away; CI runs as root.
    @Test(.enabled(if: getuid() == 0)) func aSocketInAnotherUsersFolderIsRefused() {
        let folder = temporaryFolder() + "/theirs"
        mkdir(folder, 0o700)
        chown(folder, 65534, 65534)
        let result = touchgest("events --events-socket \(folder)/events.sock")
        #expect(result.status == 1)
        #expect(result.stderr == "touchgest: error: will not connect to \(folder)/events.sock: \(folder) belongs to user 65534, not to you (0): another user could have put a socket there; give --events-socket in a folder of your own\n")
    }
}
