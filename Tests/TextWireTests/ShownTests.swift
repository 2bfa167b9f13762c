import Testing
import TextWire

/// The forms messages give durations, sizes and numbers in, each written once: the log's
/// waits ("5 s"), the daemon's retries ("0.25s"), byte bounds, numbers as a user writes them.
@Suite struct ShownTests {
    @Test func durationsInWholeSecondsOrMilliseconds() {
        #expect(shown(.seconds(5)) == "5 s")
        #expect(shown(.milliseconds(200)) == "200 ms")
        #expect(shown(.milliseconds(1_500)) == "1500 ms")
        #expect(shown(.microseconds(2_999)) == "2 ms")
    }

    @Test func retriesInSecondsWithUpToTwoDecimals() {
        #expect(shownInSeconds(.seconds(30)) == "30s")
        #expect(shownInSeconds(.milliseconds(250)) == "0.25s")
        #expect(shownInSeconds(.milliseconds(1_500)) == "1.50s")
    }

    @Test func byteCountsInTheLargestWholeUnit() {
        #expect(shownBytes(32 << 20) == "32 MiB")
        #expect(shownBytes(64 << 10) == "64 KiB")
        #expect(shownBytes(300) == "300 bytes")
        #expect(shownBytes(0) == "0 bytes")
    }

    @Test func numbersAsAUserWritesThem() {
        #expect(shownNumber(50) == "50")
        #expect(shownNumber(0.1) == "0.1")
        #expect(shownNumber(-2) == "-2")
        #expect(shownNumber(1e20) == "1e+20")
    }
}
