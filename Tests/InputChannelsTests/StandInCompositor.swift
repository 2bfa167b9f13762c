import Glibc
import TestSupport
@testable import InputChannels
import PollLoop
import TouchGestures

/// A stand-in compositor, not a real one: a unix socket in the test's own thread that
/// speaks just enough of the Wayland wire format (a registry's globals, a sync's `done`)
/// for a channel's handshake, and whatever bytes a hostile test sends after it.
/// Connections wait in the listen backlog until ``accept()``.
final class StandInCompositor {
    let path: String
    private let listener: Int32

    init(path: String) {
        self.path = path
        listener = listeningSocket(at: path)
    }

    deinit {
        close(listener)
        unlink(path)
    }

    /// The next connection, with the channel's hello (get_registry and sync) read;
    /// waiting at most a second for each.
    func accept() -> Client? {
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 1_000) == 1 else { return nil }
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        let client = Client(fd: fd)
        return client.receive(atLeast: 24).count >= 24 ? client : nil
    }

    /// One connection, the compositor's end.
    final class Client {
        let fd: Int32
        init(fd: Int32) { self.fd = fd }
        deinit { close(fd) }

        /// Sends `bytes` whole (blocking while the channel has not read the room).
        func send(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { return }
                offset += sent
            }
        }

        /// What the channel sent, waiting up to a second for each read.
        func receive(atLeast count: Int) -> [UInt8] {
            receiveBytes(from: fd, atLeast: count)
        }

        /// The globals a virtual keyboard binds, and the sync's `done`: the handshake.
        func shakeHands() {
            send(Self.global(1, "wl_seat", version: 7) + Self.global(2, VirtualKeyboardChannel.managerInterface, version: 1)
                + Self.event(WaylandChannel.Object.callback.rawValue, 0, WaylandChannel.bytes(1)))
        }

        func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

        /// An event: object, size and opcode, then its arguments.
        static func event(_ object: UInt32, _ opcode: UInt16, _ body: [UInt8]) -> [UInt8] {
            WaylandChannel.message(object, opcode, body)
        }

        /// wl_registry.global(name, interface, version).
        static func global(_ name: UInt32, _ interface: String, version: UInt32) -> [UInt8] {
            event(WaylandChannel.Object.registry.rawValue, 0,
                  WaylandChannel.bytes(name) + WaylandChannel.string(interface) + WaylandChannel.bytes(version))
        }
    }
}

/// A virtual keyboard channel in its own event loop, collecting its reports.
final class ChannelRig {
    let loop = EventLoop()
    let channel: VirtualKeyboardChannel
    var reports: [InputChannelReport] = []

    init(socket: String) {
        channel = VirtualKeyboardChannel(display: socket, runtimeDirectory: "")
        channel.onReport = { [unowned self] in reports.append($0) }
        loop.add(channel)
        channel.start()
    }

    /// Runs the loop until `done` holds, or `limit` passes.
    func run(within limit: Duration = .seconds(10), until done: () -> Bool) {
        let deadline = PollScheduler.now() + limit
        while !done() && PollScheduler.now() < deadline {
            loop.run(until: min(deadline, PollScheduler.now() + .milliseconds(20)))
        }
    }
}
