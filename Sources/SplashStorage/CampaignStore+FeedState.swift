import CSQLite
import FoundationEssentials
import SplashCore

/// What the syncs of a feed left behind: its validators, when it last succeeded, changed
/// and failed, its message and its warnings.
extension CampaignStore {
    /// What the last syncs of a feed left behind.
    public struct FeedState: Equatable {
        /// The `ETag` of the feed applied, sent back in the next conditional request.
        public var etag: String?
        /// The `Last-Modified` of the feed applied, sent back in the next conditional request.
        public var lastModified: String?
        /// When a feed was last applied (its content read in full).
        public var lastSuccess: Date?
        /// When a sync last applied the feed or failed (a 304 changes nothing here).
        public var lastAttempt: Date?
        /// Why the last sync failed; nil once a feed is applied again.
        public var lastError: String?
        /// The feed's default detail text, from the feed applied last (held again to the
        /// feed's cap, `FeedDocument.maxMessage`, whoever reads it: the network process wrote it).
        public var message: String?
        /// When the feed's content last changed, as this device saw it.
        public var lastChange: Date?
        /// When the kiosk last confirmed its catalog with the feed: an applied feed or a 304.
        public var lastConfirmed: Date?
        /// The warnings of the feed applied (entries skipped, fields left out), kept until it changes.
        public var warnings: [String] = []
        /// The screen schedule of the feed applied (its `screen` object); nil when it has none.
        public var screen: FeedScreen?
        /// A fingerprint of the feed's bytes applied last: a feed fetched again with the same
        /// one has not changed.
        public var contentHash: String?
        /// The device's groups when the feed was applied (`DeviceGroups.memberships`, joined by
        /// commas; nil: none were judged).
        public var deviceGroups: String?
    }

    /// What the syncs of the feed at `url` left behind; all empty before any.
    public func feedState(for url: URL) throws -> FeedState {
        let rows = try db.rows("""
        SELECT etag, last_modified, last_success, last_attempt, last_error, message, last_change, warnings, screen, content_hash,
               device_groups
        FROM feed_state WHERE feed_url = ?
        """, [.text(url.storedName)])
        guard let r = rows.first else { return FeedState() }
        let success = try r["last_success"].date
        let confirmed = confirmation.date(for: url).map { max($0, success ?? $0) } ?? success
        return FeedState(etag: try r["etag"].text, lastModified: try r["last_modified"].text, lastSuccess: success,
                         lastAttempt: try r["last_attempt"].date, lastError: try r["last_error"].text, message: try r["message"].text.map { String($0.prefix(FeedDocument.maxMessage)) },
                         lastChange: try r["last_change"].date, lastConfirmed: confirmed,
                         warnings: Self.decodeList(try r["warnings"].text), screen: FeedScreen(stored: try r["screen"].text),
                         contentHash: try r["content_hash"].text, deviceGroups: try r["device_groups"].text)
    }

    /// The feed the stored campaigns came from: the one applied last (as it is stored: its
    /// public form, `storedName`); nil before any.
    public func appliedFeed() throws -> URL? {
        try db.rows("SELECT feed_url FROM feed_state WHERE last_success IS NOT NULL ORDER BY last_success DESC LIMIT 1")
            .first?["feed_url"].text.flatMap(URL.init(string:))
    }

    /// Notes that the feed answered "not modified" at `date`: what is stored is still its
    /// content. Kept beside the database, not in it, so that a 304 writes nothing there.
    public func confirm(_ url: URL, at date: Date) {
        confirmation.note(url, at: date)
    }

    /// Notes a failed sync; the campaigns are left as they were.
    public func recordSyncFailure(for url: URL, error: String, at date: Date) throws {
        try db.execute("""
        INSERT INTO feed_state (feed_url, last_attempt, last_error) VALUES (?, ?, ?)
        ON CONFLICT (feed_url) DO UPDATE SET last_attempt = excluded.last_attempt, last_error = excluded.last_error
        """, [.text(url.storedName), .date(date), .text(error)])
    }
}
