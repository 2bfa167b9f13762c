import Testing
import TextWire

/// Every JSON line touchgest writes goes through one writer and one escaper.
@Suite struct JSONLineTests {
    @Test func keysInOrderWithEveryKindOfValue() {
        var inner = JSONLine()
        inner.add("rule", "up")
        var line = JSONLine("stroke")
        line.add("fingers", 2)
        line.add("time_us", UInt64(1_000_000_000_000))
        line.add("length", 12.0)
        line.add("nan", Double.nan)
        line.add("x", rounded: 12.3456)
        line.add("dx", rounded: nil)
        line.add("device", nil as String?)
        line.add("names", ["a", "b"])
        line.add("fired", true)
        line.add("matches", objects: [inner])
        #expect(line.text == #"{"event":"stroke","fingers":2,"time_us":1000000000000,"length":12.0,"nan":null,"x":12.346,"dx":null,"device":null,"names":["a","b"],"fired":true,"matches":[{"rule":"up"}]}"#)
    }

    @Test func controlsAndBidiOverridesAreEscapedInValuesAndKeys() {
        var line = JSONLine()
        line.add("t\u{1b}", "a\"b\\\n\u{9b}\u{202e}")
        #expect(line.text == #"{"t\u001b":"a\"b\\\n\u009b\u202e"}"#)
    }

    @Test func numbersHaveNoTrailingZerosAndNoNegativeZero() {
        #expect(jsonNumber(2.5) == "2.5")
        #expect(jsonNumber(3) == "3")
        #expect(jsonNumber(-0.0001) == "0")
        #expect(jsonNumber(.infinity) == "null")
        #expect(jsonNumber(1.23456, decimals: 1) == "1.2")
    }

    @Test func terminalTextShowsEveryControlAsAnEscape() {
        #expect("title\u{1b}]0;x\u{7}\n\u{202e}".escapingControlCharacters == #"title\x1b]0;x\x07\x0a\u{202e}"#)
        #expect("plain é".escapingControlCharacters == "plain é")
    }
}
