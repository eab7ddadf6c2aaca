/// How a sync ended.
public enum SyncStatus: String, Codable, Equatable, Sendable {
    /// A new feed was applied.
    case ok
    /// The server said nothing changed (304); nothing was written.
    case notModified = "not_modified"
    /// The feed could not be fetched or was not valid; nothing changed.
    case error
}
