import FoundationEssentials

/// What the shell saw of systemd-timesyncd: whether it runs here, and whether it has
/// synchronised the clock (`/run/systemd/timesync/synchronized`).
public enum TimeSync: Equatable, Sendable {
    /// timesyncd does not run here (or this is not a systemd system).
    case absent
    case waiting
    case synchronized
}
