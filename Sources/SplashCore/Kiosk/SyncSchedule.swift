import FoundationEssentials

/// When the feed is synced: at start, then every `interval` seconds; after a failure
/// sooner, with backoff 30 s, 60 s, 120 s … capped at the interval. Each wait is spread by
/// up to 10 % either way, so that a fleet that boots together after a power cut does not
/// ask its feed server in lockstep for ever. The spread is pure: a generator in the state,
/// seeded by the shell (`KioskSettings.syncSeed`).
public struct SyncSchedule: Equatable, Sendable {
    /// The wait after a sync that did not fail, and the cap of the backoff.
    public var interval: Seconds
    /// Failures in a row.
    public var failures = 0
    /// A sync is in flight.
    public var running = false
    /// When the next sync starts (nil: not scheduled, e.g. before start).
    public var nextAt: Seconds?

    /// The spread's generator (SplitMix64), stepped once per finished sync.
    public var seed: UInt64
    /// How far a wait may be spread either way, as a fraction of it.
    public static let spread = 0.1

    /// A schedule with no sync planned yet, `seed` starting the spread.
    public init(interval: Seconds, seed: UInt64 = 0) {
        self.interval = interval
        self.seed = seed
    }

    /// The next spread factor, from 1 − `spread` up to 1 + `spread`.
    mutating func nextFactor() -> Double {
        seed &+= 0x9E37_79B9_7F4A_7C15
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let unit = Double(z >> 11) / Double(UInt64(1) << 53)
        return 1 + Self.spread * (2 * unit - 1)
    }

    /// The wait after `failures` failures in a row.
    public static func backoff(failures: Int, interval: Seconds) -> Seconds {
        failures > 0 ? Backoff.retries(cappedAt: interval).delay(failures: failures) : interval
    }

    /// Whether the feed at `feed` is read before the first frame: a local feed that was
    /// never read (it is on this disk, not the network), so that the bundled demo is on the
    /// very first splash. Any other sync runs after the first frame, never before it.
    public static func readsBeforeFirstFrame(_ feed: URL, lastSuccess: Date?) -> Bool {
        feed.isFileURL && lastSuccess == nil
    }

    /// The most seconds that read before the first frame may take: past it, the first frame
    /// shows what is stored (the bundled picture), and the sync after the first frame reads
    /// the feed as any sync does.
    public static let firstReadTimeout: Seconds = 5

    /// Notes a finished sync at `now` and schedules the next.
    public mutating func finished(_ status: SyncStatus, at now: Seconds) {
        running = false
        failures = status == .error ? failures + 1 : 0
        nextAt = now + Self.backoff(failures: failures, interval: interval) * nextFactor()
    }
}
