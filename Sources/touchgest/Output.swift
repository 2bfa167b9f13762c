import Glibc
import TextWire

/// Writes one line to standard output at once (no buffering: a pipe reader, such as the
/// test rig or journald, sees every line as it happens). Control characters in `text`,
/// a newline too, are escaped: see `escapingControlCharacters`.
func emit(_ text: String) {
    writeLine(1, text.escapingControlCharacters)
}

/// Writes one line to standard error, its control characters escaped as `emit` does.
func printError(_ text: String) {
    writeLine(2, text.escapingControlCharacters)
}

/// Writes `line` and a newline to `descriptor` as it is: the caller has escaped every
/// string from outside in it (DebugPrinter adds colours of its own this way).
func writeLine(_ descriptor: Int32, _ line: String) {
    var line = line + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
