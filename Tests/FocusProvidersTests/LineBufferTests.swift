import Testing
@testable import FocusProviders

/// Hyprland's and niri's sockets are read in pieces that cut lines anywhere.
@Suite struct LineBufferTests {
    @Test func linesCutAnywhereComeOutWholeAndInOrder() throws {
        let text = Array("activewindow>>foot,~\n\nniri {\"Ok\":\"Handled\"}\nrest".utf8)
        for size in [1, 2, 7, text.count] {
            var buffer = LineBuffer()
            var lines: [String] = []
            for start in stride(from: 0, to: text.count, by: size) {
                lines += try buffer.append(Array(text[start..<min(start + size, text.count)])).map { String(decoding: $0, as: UTF8.self) }
            }
            #expect(lines == ["activewindow>>foot,~", "", "niri {\"Ok\":\"Handled\"}"], "reads of \(size)")
            #expect(buffer.rest == Array("rest".utf8))
        }
    }

    @Test func aLineLongerThanTheLimitIsAnErrorOnceItIsOverIt() throws {
        var buffer = LineBuffer()
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<FocusDefaults.maximumMessageBytes / piece.count {
            #expect(try buffer.append(piece).isEmpty)
        }
        #expect(throws: FocusWireError("a line longer than \(FocusDefaults.maximumMessageBytes) bytes")) {
            try buffer.append([UInt8(ascii: "x")])
        }
    }
}
