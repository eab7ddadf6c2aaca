import FoundationEssentials

/// Why the device's storage could not be opened.
public enum DeviceStorageError: LocalizedError, Equatable {
    /// The cache folder cannot be made or opened, and why.
    case cacheFolder(path: String, reason: String)
    /// No feed is configured and the bundled demo feed, the default, is not installed.
    case noFeed

    /// The problem in words for the operator, with what to do about it.
    public var errorDescription: String? {
        switch self {
        case let .cacheFolder(path, reason):
            return "image cache \(path): cannot create the cache folder: \(reason)"
        case .noFeed:
            return "no feed: set `feed = URL` in the config file or give --feed URL (the default, the bundled demo "
                + "feed, is not installed here: reinstall the package, or name its folder in SPLASHBOARD_ASSETS)"
        }
    }
}
