import FoundationEssentials
import Glibc

/// The system's monotonic clock (`CLOCK_MONOTONIC`): what deadlines and rate limits are
/// measured on, because the wall clock jumps (NTP sets it at boot on a device with no
/// real-time clock) and a deadline on it would expire at once or never.
public enum MonotonicClock {
    /// Seconds since an arbitrary start, never going back and not moved by the wall clock.
    public static func seconds() -> TimeInterval {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
