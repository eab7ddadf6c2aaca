/// When the feed is synced: at start, then every `interval` seconds; after a failure
/// sooner, with backoff 30 s, 60 s, 120 s … capped at the interval.
public struct SyncSchedule: Equatable, Sendable {
    public var interval: Seconds
    /// Failures in a row.
    public var failures = 0
    /// A sync is in flight.
    public var running = false
    /// When the next sync starts (nil: not scheduled, e.g. before start).
    public var nextAt: Seconds?

    public init(interval: Seconds) {
        self.interval = interval
    }

    /// The wait after `failures` failures in a row.
    public static func backoff(failures: Int, interval: Seconds) -> Seconds {
        guard failures > 0 else { return interval }
        let exponent = min(failures - 1, 20)
        return min(30 * Double(1 << exponent), interval)
    }

    /// Notes a finished sync at `now` and schedules the next.
    public mutating func finished(_ status: SyncStatus, at now: Seconds) {
        running = false
        failures = status == .error ? failures + 1 : 0
        nextAt = now + Self.backoff(failures: failures, interval: interval)
    }
}
