
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
    /// Cached pictures and clips found changed on their servers and replaced by the new
    /// version, by address.
    public var replaced: [String] = []

    /// Decodes a report; one without `replaced` (from a network process of an earlier
    /// version, still running through an upgrade) replaced nothing.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decode(SyncStatus.self, forKey: .status)
        campaigns = try c.decode(Int.self, forKey: .campaigns)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        failure = try c.decodeIfPresent(SyncFailure.self, forKey: .failure)
        warnings = try c.decode([String].self, forKey: .warnings)
        pictureErrors = try c.decode([String].self, forKey: .pictureErrors)
        milliseconds = try c.decodeIfPresent(Double.self, forKey: .milliseconds)
        replaced = try c.decodeIfPresent([String].self, forKey: .replaced) ?? []
    }

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
