// Fuzzes what desktops send touchgest: bytes -> the focus providers' wire parsers (the
// i3 IPC as sway and i3 speak it, Hyprland's two sockets, niri's event stream) fed read
// by read as SocketFocusProvider feeds them, and JSONValue.parse alone. Any bytes, split
// into reads any way, must give focus changes or a FocusWireError, never a trap, a hang
// or unbounded memory. See scripts/fuzz.
//
// An input is one byte naming the parser, then its bytes (docs/fuzzing.md):
// - `j`: the rest is one JSON text.
// - `s`, `i`, `h`, `n` (sway, i3, Hyprland, niri): the rest, cut at each 0xFF byte (which
//   UTF-8 text never holds), is one read per piece. A piece's first byte says where it
//   goes: bit 0 the answer socket (endpoint 1) rather than the event socket, Hyprland's
//   only; bit 1 the socket closes after it. So `0` is an event read, `1` an answer read,
//   `2` an event read after which the desktop goes (the provider reconnects: `reset()`),
//   `3` the answer's last read (`finished(1)`). Bit 2 makes the piece endless: its
//   bytes are read again and again, to four times the wires' limit, as a desktop that
//   floods or never ends a message would send them.
// Any other first byte picks a parser by its value modulo 5.
//
// The wires are built with a limit of 4 KiB on a message (the daemon's is 16 MiB), so
// that inputs of at most 8 KiB reach past it: over the limit, a wire must refuse, never
// grow.
import FocusProviders
import FuzzSupport
import TextWire

/// The wires' limit on a message here: small, so that inputs reach past it.
let fuzzLimit = 4_096

/// The parser an input feeds.
enum Subject: CaseIterable {
    case json, sway, i3, hyprland, niri

    init(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "j"): self = .json
        case UInt8(ascii: "s"): self = .sway
        case UInt8(ascii: "i"): self = .i3
        case UInt8(ascii: "h"): self = .hyprland
        case UInt8(ascii: "n"): self = .niri
        default: self = Self.allCases[Int(byte) % Self.allCases.count]
        }
    }

    /// A new wire, built as the daemon builds it but never asked for its endpoints, so
    /// nothing touches the file system.
    func wire() -> FocusWire? {
        switch self {
        case .json: nil
        case .sway: I3IPCWire(.sway, environment: [:], maximumMessageBytes: fuzzLimit)
        case .i3: I3IPCWire(.i3, environment: [:], maximumMessageBytes: fuzzLimit)
        case .hyprland: HyprlandWire(environment: [:], maximumMessageBytes: fuzzLimit)
        case .niri: NiriWire(environment: [:], maximumMessageBytes: fuzzLimit)
        }
    }
}

/// One read from one of a wire's sockets.
struct Read {
    var endpoint: Int
    var bytes: [UInt8]
    /// The socket closes after these bytes.
    var closes: Bool
    /// Read again and again, to four times the limit (then `closes` applies).
    var endless = false

    /// The reads this one stands for.
    var reads: [Read] {
        guard endless, !bytes.isEmpty else { return [Read(endpoint: endpoint, bytes: bytes, closes: closes)] }
        let count = 4 * fuzzLimit / bytes.count + 1
        return (0..<count).map { Read(endpoint: endpoint, bytes: bytes, closes: closes && $0 == count - 1) }
    }
}

/// What a wire said over a run: every byte it asked to send, and the last focus it reported.
struct Said: Equatable {
    var send: [UInt8] = []
    var focus: WindowFocus?

    mutating func add(_ output: FocusWireOutput) {
        send += output.send
        if let focus = output.focus { self.focus = focus }
    }
}

/// i3's GET_TREE with no payload, in the host's byte order: the only request any wire
/// sends beyond its hello (Hyprland's and niri's send nothing).
let getTree = Array("i3-ipc".utf8) + withUnsafeBytes(of: UInt32(0)) { Array($0) } + withUnsafeBytes(of: UInt32(4)) { Array($0) }

/// One input: see the header.
func fuzzOne(_ input: [UInt8]) {
    guard let first = input.first else { return }
    let subject = Subject(first)
    guard let wire = subject.wire() else {
        parseJSON(input.dropFirst())
        return
    }
    let reads = input.dropFirst().split(separator: 0xFF).map { piece in
        let control = piece[piece.startIndex]
        return Read(endpoint: subject == .hyprland ? Int(control & 1) : 0, bytes: Array(piece.dropFirst()), closes: control & 2 != 0,
                    endless: control & 4 != 0)
    }.flatMap(\.reads)
    guard let said = feed(wire, reads), reads.allSatisfy({ $0.endpoint == 0 }), let fresh = subject.wire() else { return }
    // A socket splits a stream anywhere: one read of it all must say the same.
    let whole = feed(fresh, [Read(endpoint: 0, bytes: reads.flatMap(\.bytes), closes: false)])
    guard whole == said else {
        fatalError("\(wire.desktop): read by read it said \(said), read at once \(String(describing: whole))")
    }
}

/// Feeds `reads` to `wire` as SocketFocusProvider does: a thrown error drops the
/// connection, and so does the event socket closing; both reset the wire for the next
/// connection. The answer socket closing is `finished`. Returns what the wire said, or
/// nil when the run was more than one connection.
func feed(_ wire: FocusWire, _ reads: [Read]) -> Said? {
    var said = Said()
    var oneConnection = true
    for read in reads {
        do {
            if !read.bytes.isEmpty { said.add(check(try wire.receive(read.bytes, from: read.endpoint), of: wire)) }
            guard read.closes else { continue }
            if read.endpoint == 0 {
                wire.reset()
                oneConnection = false
            } else {
                said.add(check(try wire.finished(read.endpoint), of: wire))
            }
        } catch {
            guard !error.description.isEmpty else { fatalError("\(wire.desktop): an error with no description") }
            wire.reset()
            oneConnection = false
        }
    }
    return oneConnection ? said : nil
}

/// Only i3 sends, and only whole GET_TREE requests.
func check(_ output: FocusWireOutput, of wire: FocusWire) -> FocusWireOutput {
    let request = wire is I3IPCWire ? getTree : []
    let count = request.isEmpty ? 0 : output.send.count / request.count
    guard output.send == Array(repeating: request, count: count).flatMap({ $0 }) else {
        fatalError("\(wire.desktop) asked to send \(output.send)")
    }
    return output
}

/// A JSON text gives a value, or an error placed inside the text.
func parseJSON(_ bytes: ArraySlice<UInt8>) {
    do {
        _ = try JSONValue.parse(bytes)
    } catch {
        guard (0...bytes.count).contains(error.offset), !error.message.isEmpty else {
            fatalError("JSON error \(error) for a text of \(bytes.count) bytes")
        }
    }
}

@main struct FuzzFocusWireMain {
    static func main() {
        FuzzTarget.run("FuzzFocusWire", folder: FuzzTarget.folder(of: #filePath), fuzzOne)
    }
}
