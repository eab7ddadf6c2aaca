import FoundationEssentials
import SplashCore

/// Where the network process reads time and chance: the system's (`NetworkClock.system`,
/// the one place it is read) or a test's. Every backoff, budget, rate and give-up decision
/// is made by a rule of the core from what this clock says.
public struct NetworkClock: Sendable {
    /// Monotonic seconds (deadlines, rates, waits: not moved when the wall clock is set).
    public var uptime: @Sendable () -> Seconds
    /// The wall clock (when a ping was due, what a sync is judged at).
    public var date: @Sendable () -> Date
    /// A number drawn evenly from 0 up to 1 (the spread of a retry's wait).
    public var draw: @Sendable () -> Double

    /// A clock of the caller's.
    public init(uptime: @escaping @Sendable () -> Seconds, date: @escaping @Sendable () -> Date,
                draw: @escaping @Sendable () -> Double) {
        self.uptime = uptime
        self.date = date
        self.draw = draw
    }

    /// The system's clocks and random numbers.
    public static let system = NetworkClock(uptime: MonotonicClock.seconds, date: { Date() },
                                            draw: { Double.random(in: 0..<1) })
}
