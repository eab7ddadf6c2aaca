import FoundationEssentials

/// The product version, as `--version` prints it and the package is numbered.
public enum Version {
    /// This build's version number.
    public static let current = "0.1.0"
    /// When this version was made: a wall clock earlier than this is not trusted (a device
    /// without a real-time clock starts in the past until NTP sets it).
    public static let buildDate = Date(timeIntervalSince1970: 1_795_996_800)  // 2026-11-30T00:00:00Z
}
