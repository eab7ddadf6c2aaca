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
    /// How the sync ended.
    public var status: SyncStatus
    /// Active campaigns after the sync.
    public var campaigns: Int
    /// Why it failed, when it did.
    public var error: String?
    /// What kind of failure it was (`SyncFailure`), for metrics and alerts.
    public var failure: SyncFailure?
    /// Skipped feed entries, one line each.
    public var warnings: [String]
    /// Pictures that were refused or could not be fetched, one line each.
    public var pictureErrors: [String]
    /// How long the sync took, in milliseconds, when it was timed.
    public var milliseconds: Double?

    /// A report; an `error` given without a `failure` counts as `.other`.
    public init(status: SyncStatus, campaigns: Int, error: String? = nil, failure: SyncFailure? = nil, warnings: [String] = [],
                pictureErrors: [String] = [], milliseconds: Double? = nil) {
        self.failure = failure ?? (error == nil ? nil : .other)
        self.status = status
        self.campaigns = campaigns
        self.error = error
        self.warnings = warnings
        self.pictureErrors = pictureErrors
        self.milliseconds = milliseconds
    }
}

/// What kind of thing made a sync fail, as a fleet's alerts tell them apart.
public enum SyncFailure: String, Codable, Equatable, Sendable, CaseIterable {
    /// The feed's host name did not resolve (DNS, or no network).
    case resolve
    /// The address refused the connection, or could not be reached.
    case connect
    /// No answer in time.
    case timeout
    /// The TLS handshake failed (a certificate).
    case tls
    /// A server answered with an error status.
    case status
    /// The address rule (`allow-private-addresses`) refused where it led.
    case addressRule = "address_rule"
    /// The document is not a valid feed.
    case invalidFeed = "invalid_feed"
    /// The device's own storage failed (a folder that cannot be written, a full disk).
    case storage
    /// Anything else.
    case other
}
