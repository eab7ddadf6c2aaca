import FoundationEssentials

/// The product version, as `--version` prints it and the package is numbered.
public enum Version {
    /// The product's version number; a package adds where in git it was built from
    /// (`scripts/version.sh`).
    public static let base = "0.1.0"
    /// This build's version: a package's (`0.1.0+git20261207.013000.abc1234`, stamped by
    /// `packaging/build-deb.sh` in `VersionStamp.swift`), else the product's.
    #if SPLASH_STAMPED
    public static let current = VersionStamp.version
    #else
    public static let current = base
    #endif
    /// When this version was made: a wall clock earlier than this is not trusted (a device
    /// without a real-time clock starts in the past until NTP sets it).
    public static let buildDate = Date(timeIntervalSince1970: 1_795_996_800)  // 2026-11-30T00:00:00Z
}
