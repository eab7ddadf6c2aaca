/// A sync's time, on the monotonic clock (seconds, passed in): what is not started within
/// it waits for the next sync, and pictures are started only within a first share of it,
/// so that clips and revalidation get the rest.
public struct SyncBudget: Equatable, Sendable {
    /// When the sync must end.
    public var ends: Seconds

    /// A budget of `seconds` from `start`.
    public init(from start: Seconds, seconds: Seconds) {
        ends = start + max(0, seconds)
    }

    /// Seconds left at `now` (0 once spent).
    public func secondsLeft(at now: Seconds) -> Seconds { max(0, ends - now) }

    /// Until when pictures may be started, when they begin at `now`: `share` seconds, within
    /// what is left.
    public func pictureDeadline(from now: Seconds, share: Seconds) -> Seconds {
        now + max(0, min(share, secondsLeft(at: now)))
    }
}
