import FoundationEssentials

/// Seconds on the monotonic clock, counted from process start.
public typealias Seconds = Double

/// A moment as the shell's clock sees it: monotonic seconds for deadlines and the
/// wall-clock date for campaign windows and the ledger. The core never reads a clock;
/// every action that needs time carries one of these.
public struct Instant: Equatable, Sendable {
    /// Monotonic seconds since the process started, for deadlines.
    public var uptime: Seconds
    /// The wall-clock date, for campaign windows and the ledger.
    public var date: Date

    /// The moment at which the two clocks read these values.
    public init(uptime: Seconds, date: Date) {
        self.uptime = uptime
        self.date = date
    }

    /// The same clock `seconds` later.
    public func advanced(by seconds: Seconds) -> Instant {
        Instant(uptime: uptime + seconds, date: date.addingTimeInterval(seconds))
    }
}
