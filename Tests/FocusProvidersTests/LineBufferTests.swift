import Testing
@testable import FocusProviders
import TouchGestures
import TextWire

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
            try buffer.lines([UInt8(ascii: "x")])
        }
    }
}

/// A window chooses its own title: a 1 MiB one must not reach the log or a command's
/// environment (Linux refuses an environment string over 128 KiB), issue 23.
@Suite struct OutsideTextTests {
    @Test func aHugeTitleIsCutAtACharacterBoundaryWhereItEnters() {
        let reporting = FocusReporting()
        var reports: [FocusReport] = []
        reporting.onReport = { reports.append($0) }
        // "é" is two bytes: 4,096 bytes end in the middle of one after an odd prefix.
        let title = "x" + String(repeating: "é", count: 600_000)
        reporting.focused(.window(appID: "firefox", title: title))
        guard case let .focused(.window(appID, cut))? = reports.first else {
            Issue.record("no focus reported: \(reports)")
            return
        }
        #expect(appID == "firefox")
        #expect(cut.utf8.count == 4_095)
        #expect(cut == "x" + String(repeating: "é", count: 2_047))
    }

    @Test func aShortTitleIsUntouched() {
        #expect("Inbox — Mozilla Firefox".prefix(utf8Bytes: 4_096) == "Inbox — Mozilla Firefox")
    }
}
