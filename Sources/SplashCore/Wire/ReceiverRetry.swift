/// When the network process posts to a receiver again after it failed (proof of play): 30 s
/// after the first failure, doubling up to 15 min, each wait spread by 10 % either way so that
/// a fleet does not come back at once; however often shows end meanwhile, nothing is posted
/// before the wait is over. Time (monotonic seconds) and the spread are passed in.
public struct ReceiverRetry: Equatable, Sendable {
    /// The waits after failures in a row.
    public static let backoff = Backoff(first: 30, cap: 900)
    /// What each wait is multiplied by, drawn anew at each failure.
    public static let spread = 0.9...1.1

    /// The spread that a number drawn evenly from 0 up to 1 stands for.
    public static func spread(drawn: Double) -> Double {
        spread.lowerBound + drawn * (spread.upperBound - spread.lowerBound)
    }

    /// Failed rounds in a row.
    public private(set) var failures = 0
    /// The monotonic second before which no round posts.
    public private(set) var notBefore: Seconds = 0

    /// No failure yet.
    public init() {}

    /// Whether a round may post at `now`.
    public func mayPost(at now: Seconds) -> Bool { now >= notBefore }

    /// A round sent everything. True when it had been failing: the receiver answers again,
    /// which is worth saying.
    public mutating func succeeded() -> Bool {
        defer { failures = 0; notBefore = 0 }
        return failures > 0
    }

    /// A round failed at `now`; `spread` is drawn from `ReceiverRetry.spread` (clamped to
    /// it). Returns the wait before the next round as said to the operator (without the
    /// spread), and whether this is the first failure of a run (the one worth a warning).
    public mutating func failed(at now: Seconds, spread: Double) -> (wait: Seconds, first: Bool) {
        failures += 1
        let wait = Self.backoff.delay(failures: failures)
        let factor = min(Self.spread.upperBound, max(Self.spread.lowerBound, spread))
        notBefore = now + wait * factor
        return (wait, failures == 1)
    }
}
