import SplashCore
import Testing

/// When proof of play posts to a receiver that failed: the decision, without a clock.
@Suite struct ReceiverRetryTests {
    @Test func waitsDoubleFromThirtySecondsToFifteenMinutesSpreadByTenPercent() {
        var retry = ReceiverRetry()
        #expect(retry.mayPost(at: 0))
        var waits: [Seconds] = []
        var firsts: [Bool] = []
        for _ in 1...8 {
            let (wait, first) = retry.failed(at: 100, spread: 1)
            waits.append(wait)
            firsts.append(first)
        }
        #expect(waits == [30, 60, 120, 240, 480, 900, 900, 900])
        #expect(firsts == [true] + Array(repeating: false, count: 7))
        #expect(!retry.mayPost(at: 999.9) && retry.mayPost(at: 1_000))
        // The spread is 0.9 to 1.1, whatever is drawn.
        var spread = ReceiverRetry()
        _ = spread.failed(at: 0, spread: 5)
        #expect(spread.notBefore == 33)
        _ = spread.failed(at: 0, spread: 0)
        #expect(spread.notBefore == 54)
    }

    @Test func aSuccessSaysTheReceiverIsBackOnlyAfterAFailureAndStartsAfresh() {
        var retry = ReceiverRetry()
        let backAtOnce = retry.succeeded()
        #expect(!backAtOnce)
        _ = retry.failed(at: 10, spread: 1)
        _ = retry.failed(at: 40, spread: 1)
        let back = retry.succeeded()
        #expect(back)
        #expect(retry.failures == 0 && retry.mayPost(at: 0))
        let again = retry.failed(at: 0, spread: 1)
        #expect(again.wait == 30 && again.first)
    }
}

/// A sync's time, without a clock.
@Suite struct SyncBudgetTests {
    @Test func picturesStartWithinTheirShareAndEverythingWithinTheBudget() {
        let budget = SyncBudget(from: 100, seconds: 240)
        #expect(budget.secondsLeft(at: 100) == 240 && budget.secondsLeft(at: 300) == 40 && budget.secondsLeft(at: 400) == 0)
        // Pictures begun at once get their 60 s; begun with 20 s left, those 20.
        #expect(budget.pictureDeadline(from: 100, share: 60) == 160)
        #expect(budget.pictureDeadline(from: 320, share: 60) == 340)
        #expect(budget.pictureDeadline(from: 500, share: 60) == 500)
        #expect(SyncBudget(from: 0, seconds: -5).secondsLeft(at: 0) == 0)
    }
}
