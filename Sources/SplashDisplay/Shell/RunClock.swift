import FoundationEssentials
import Glibc
import SplashCore

/// The run's clock: real (monotonic time, the loop sleeps) or virtual (time stands still
/// until the loop jumps it to the next deadline).
public final class RunClock {
    /// Real or virtual.
    public let mode: ClockMode
    private let startNanos: UInt64
    private let startDate: Date
    private var virtualElapsed: Seconds = 0

    /// A clock of `mode` starting now, its wall-clock time counted from `startDate`.
    public init(mode: ClockMode, startDate: Date = Date()) {
        self.mode = mode
        self.startDate = startDate
        startNanos = Self.monotonicNanos()
    }

    /// Seconds since the clock started.
    public var uptime: Seconds {
        switch mode {
        case .real: return Double(Self.monotonicNanos() - startNanos) / 1e9
        case .virtual: return virtualElapsed
        }
    }

    /// The current instant. Real: the wall clock as it is now, so that a step of it (NTP
    /// setting a clock that booted without one) is seen at once; virtual: the start's date
    /// moved on by the virtual time.
    public func now() -> Instant {
        let u = uptime
        return Instant(uptime: u, date: mode == .real ? Date() : startDate.addingTimeInterval(u))
    }

    /// Virtual clock only: jumps forward to `deadline` (never backwards).
    public func advance(to deadline: Seconds) {
        guard mode == .virtual else { return }
        virtualElapsed = max(virtualElapsed, deadline)
    }

    static func monotonicNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Milliseconds since this process started, on the monotonic (boot-time) clock, from
    /// the start time the kernel records for the process.
    public static func millisecondsSinceProcessStart() -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")")
        else { return 0 }
        // Fields after the command name start at field 3; starttime is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return 0 }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        let nowMs = Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
        return max(0, Int((nowMs - ticks / hz * 1000).rounded()))
    }
}
