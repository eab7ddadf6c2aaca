/// Waits that double with each failure in a row: `first` after the first, twice that after
/// the second, and so on, never more than `cap`. The one rule behind the sync's and the
/// poem's retries, proof of play's and the wait for a display.
public struct Backoff: Equatable, Sendable {
    /// The wait after the first failure.
    public var first: Seconds
    /// The longest wait.
    public var cap: Seconds

    /// A backoff from `first` doubling up to `cap`.
    public init(first: Seconds, cap: Seconds) {
        self.first = first
        self.cap = cap
    }

    /// The wait after `failures` failures in a row (at least 1).
    public func delay(failures: Int) -> Seconds {
        min(first * Double(1 << min(max(0, failures - 1), 30)), cap)
    }

    /// The retries of a sync or a poem: 30 s doubling, capped at their period.
    public static func retries(cappedAt interval: Seconds) -> Backoff { Backoff(first: 30, cap: interval) }
}
