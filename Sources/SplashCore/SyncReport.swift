/// How a sync ended.
public enum SyncStatus: String, Codable, Equatable, Sendable {
    /// A new feed was applied.
    case ok
    /// The server said nothing changed (304); nothing was written.
    case notModified = "not_modified"
    /// The feed could not be fetched or was not valid; nothing changed.
    case error
}

/// The outcome of one sync, as the kiosk and `splashboard sync` report it.
public struct SyncReport: Codable, Equatable, Sendable {
    public var status: SyncStatus
    /// Active campaigns after the sync.
    public var campaigns: Int
    /// Why it failed, when it did.
    public var error: String?
    /// Skipped feed entries, one line each.
    public var warnings: [String]
    /// Pictures that were refused or could not be fetched, one line each.
    public var pictureErrors: [String]
    /// How long the sync took, in milliseconds, when it was timed.
    public var milliseconds: Double?

    public init(status: SyncStatus, campaigns: Int, error: String? = nil, warnings: [String] = [],
                pictureErrors: [String] = [], milliseconds: Double? = nil) {
        self.status = status
        self.campaigns = campaigns
        self.error = error
        self.warnings = warnings
        self.pictureErrors = pictureErrors
        self.milliseconds = milliseconds
    }
}
