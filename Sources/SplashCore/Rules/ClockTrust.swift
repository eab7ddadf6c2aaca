import FoundationEssentials

/// Whether the wall clock can be trusted. A Raspberry Pi has no real-time clock: it starts
/// in the past until NTP sets it. Where systemd-timesyncd runs, its synchronised flag says;
/// elsewhere, a clock earlier than this build's date or than the newest `updatedAt` already
/// seen is wrong.
public enum ClockTrust {
    /// Whether `now` can be trusted, given what timesyncd says, the newest `updatedAt` seen
    /// and the build's date.
    public static func isTrusted(_ now: Date, timeSync: TimeSync, newestUpdatedAt: Date?,
                                 buildDate: Date = Version.buildDate) -> Bool {
        switch timeSync {
        case .synchronized: return true
        case .waiting: return false
        case .absent: return now >= buildDate && now >= (newestUpdatedAt ?? .distantPast)
        }
    }
}
