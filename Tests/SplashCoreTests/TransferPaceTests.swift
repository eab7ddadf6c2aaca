import SplashCore
import Testing

/// The minimum transfer rate, on a clock of the test's.
@Suite struct TransferPaceTests {
    @Test func aBodyThatKeepsPaceIsNeverStoppedHoweverLongItTakes() {
        var pace = TransferPace(bytes: 100, seconds: 10)
        for second in stride(from: 0.0, through: 600, by: 5) {
            #expect(pace.received(60, at: 1_000 + second) == nil, "stopped at \(second) s though 120 bytes came in every 10 s")
        }
    }

    @Test func aWindowThatEndsShortStopsTheFetchWithWhatCameIn() {
        var pace = TransferPace(bytes: 100, seconds: 10)
        #expect(pace.received(50, at: 0) == nil)
        #expect(pace.received(20, at: 9.9) == nil, "judged before its window ended")
        #expect(pace.received(1, at: 10) == 71)
    }

    @Test func theWindowStartsAtTheFirstBytesNotAtTheRequest() {
        var pace = TransferPace(bytes: 100, seconds: 10)
        #expect(pace.received(100, at: 500) == nil)
        #expect(pace.received(0, at: 509) == nil)
        #expect(pace.received(1, at: 510) == nil, "a full window was judged short")
        #expect(pace.received(1, at: 521) == 1, "the next window starts where the last one was judged")
    }
}
