import CSQLite
import FoundationEssentials
import SplashCore

/// A good feed applied in one transaction: campaigns added, updated and retired, their
/// pictures' states, and campaigns gone long enough forgotten.
extension CampaignStore {
    /// What a sync learned about one campaign's picture.
    public enum ImageStatus: Equatable {
        /// Cached and valid, with its thumbnail (nil: it was already cached earlier) and, for
        /// an animated GIF that is played, its facts (kept with the thumbnail).
        case cached(thumbnail: [UInt8]?, motion: VideoFacts? = nil)
        /// Refused for good (wrong kind, too large, undecodable).
        case refused(String)
        /// Not available this time, and why ("cache full", a network error); tried again
        /// at the next sync.
        case waiting(String)
    }

    /// Applies a good feed in one transaction: campaigns in it are added or updated and
    /// active, the others inactive (their history stays); the feed state is updated.
    /// `contentHash` is a fingerprint of the document's bytes: when it is the one stored,
    /// the feed's content has not changed (`lastChange` stays); nil counts as a change.
    public func apply(_ document: FeedDocument, from url: URL, etag: String?, lastModified: String?,
                      images: [Campaign.ID: ImageStatus], at date: Date, contentHash: String? = nil) throws {
        try apply(document, from: url, etag: etag, lastModified: lastModified, images: images, at: date, keys: PictureKeys(),
                  contentHash: contentHash)
    }

    /// The campaign columns a feed writes, in the order `apply` gives their values (the
    /// row's `active` and `image_problem` follow rules of their own).
    static let feedColumns = [
        "id", "pic_url", "show_time", "title", "detail", "start_at", "end_at", "updated_at", "position", "image_key",
        "image_waiting", "first_seen", "last_seen", "impression_urls", "click_urls", "hours", "days", "time_zone",
        "max_per_day", "min_interval", "priority", "countdown", "link_url", "video_url", "focus", "portrait_url", "portrait_key", "groups",
        "link_label",
    ]

    /// `apply` with the picture keys of this sync (one picture's key is computed once).
    public func apply(_ document: FeedDocument, from url: URL, etag: String?, lastModified: String?,
                      images: [Campaign.ID: ImageStatus], at date: Date, keys: PictureKeys, contentHash: String? = nil) throws {
        try db.transaction {
            try db.execute("UPDATE campaigns SET active = 0 WHERE active = 1")
            // One list of columns makes the insert, its values and the update.
            let columns = Self.feedColumns
            let updated = columns.filter { $0 != "id" && $0 != "first_seen" }.map { "\($0) = excluded.\($0)" }
            let upsert = try db.statement("""
                INSERT INTO campaigns (\(columns.joined(separator: ", ")), active)
                VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")), 1)
                ON CONFLICT (id) DO UPDATE SET \(updated.joined(separator: ", ")), active = 1,
                    image_problem = CASE WHEN campaigns.image_key = excluded.image_key THEN campaigns.image_problem END,
                    video_facts = CASE WHEN campaigns.video_url IS excluded.video_url THEN campaigns.video_facts END,
                    video_problem = CASE WHEN campaigns.video_url IS excluded.video_url THEN campaigns.video_problem END,
                    video_waiting = CASE WHEN campaigns.video_url IS excluded.video_url THEN campaigns.video_waiting END,
                    portrait_problem = CASE WHEN campaigns.portrait_url IS excluded.portrait_url THEN campaigns.portrait_problem END
                """)
            for c in document.campaigns {
                let (key, picText) = keys.of(c.picURL)
                // Why the picture waits goes in with the row; anything else clears it.
                var waiting: String?
                if case .waiting(let reason) = images[c.id] { waiting = reason }
                // In the order of `feedColumns`.
                try db.run(upsert, [.id(c.id), .text(picText), .int(Int64(c.showLimit)), .optional(c.title),
                                    .optional(c.detail), .date(c.startAt), .date(c.endAt), .date(c.updatedAt),
                                    .int(Int64(c.position)), .text(key), .optional(waiting), .date(date), .date(date),
                                    .optional(Self.encodeList(c.impressionURLs)), .optional(Self.encodeList(c.clickURLs)),
                                    .optional(c.hours.isEmpty ? nil : c.hours.map(\.text).joined(separator: ",")),
                                    .optional(c.days.isEmpty ? nil : c.days.sorted().map(\.text).joined(separator: ",")),
                                    .optional(c.timeZone), .optionalInt(c.maxPerDay), .optionalInt(c.minInterval),
                                    .int(Int64(c.priority)), .optionalInt(c.countdown), .optional(c.linkURL?.absoluteString),
                                    .optional(c.videoURL?.absoluteString), .optional(c.focus?.text),
                                    .optional(c.portraitURL.map { keys.of($0).text }), .optional(c.portraitURL.map { keys.of($0).key }),
                                    .optional(c.groups.map { JSONValue($0).encoded() }), .optional(c.linkLabel)])
                try applyImageStatus(images[c.id], campaignID: c.id, imageKey: key, waitingWritten: true)
            }
            try db.execute("""
            INSERT INTO feed_state (feed_url, etag, last_modified, last_success, last_attempt, last_error, message,
                                    last_change, content_hash, warnings, screen, device_groups)
            VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (feed_url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                last_success = excluded.last_success, last_attempt = excluded.last_attempt, last_error = NULL,
                message = excluded.message, warnings = excluded.warnings, screen = excluded.screen,
                device_groups = excluded.device_groups,
                last_change = CASE WHEN excluded.content_hash IS NOT NULL AND feed_state.content_hash IS excluded.content_hash
                                   AND feed_state.last_change IS NOT NULL THEN feed_state.last_change ELSE excluded.last_change END,
                content_hash = excluded.content_hash
            """, [.text(url.storedName), .optional(etag), .optional(lastModified), .date(date), .date(date),
                  .optional(document.message), .date(date), .optional(contentHash),
                  .optional(Self.encodeList(document.warnings.map(Self.oneLine))), .optional(document.screen?.stored),
                  .optional(device?.stored)])
            try prune(before: date.addingTimeInterval(-Self.retention))
            // The campaigns up now are this feed's: another feed, even unchanged since it was
            // last read, must be read in full if the kiosk goes back to it (not answered 304).
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL WHERE feed_url != ?",
                           [.text(url.storedName)])
        }
    }

    /// A warning on one line (a feed's text may hold line breaks).
    static func oneLine(_ text: String) -> String {
        text.replacing("\r", with: " ").replacing("\n", with: " ")
    }

    /// How long a campaign gone from the feed is kept, with its shows: 90 days. After that
    /// it is forgotten (a feed that names it again starts its count afresh), so that feeds
    /// that keep naming new campaigns cannot grow the database without end.
    public static let retention: TimeInterval = 90 * 86_400
    /// How many campaigns gone from the feed are kept at the most (10,000), the longest gone
    /// forgotten first — a feed that renames thousands of campaigns at every sync cannot grow
    /// the database within the 90 days either. Their shows stay (a campaign that comes back
    /// goes on counting), forgotten after the 90 days as every show is.
    public static let retiredLimit = 10_000

    /// Forgets campaigns last seen in a feed before `cutoff`, and beyond the `retiredLimit`
    /// longest gone, their shows recorded before it, and thumbnails no campaign shows any more.
    func prune(before cutoff: Date) throws {
        let changes = { try self.db.query("SELECT changes()").first?.first?.int ?? 0 }
        var removed: Int64 = 0
        let retired = try db.query("SELECT count(*) FROM campaigns WHERE active = 0").first?.first?.int ?? 0
        if retired > Int64(Self.retiredLimit) {
            try db.execute("""
            DELETE FROM campaigns WHERE id IN
                (SELECT id FROM campaigns WHERE active = 0 ORDER BY last_seen DESC, id LIMIT -1 OFFSET ?)
            """, [.int(Int64(Self.retiredLimit))])
            removed += try changes()
        }
        try db.execute("DELETE FROM campaigns WHERE active = 0 AND last_seen < ?", [.date(cutoff)])
        removed += try changes()
        // The shows of every campaign no longer stored (gone 90 days, or beyond the limit)
        // recorded before the cutoff, then the keys and thumbnails nothing names any more.
        // Run only when a campaign went now or one gone before still has keys.
        let forgotten = try db.query("""
        SELECT 1 FROM campaign_keys WHERE id NOT IN (SELECT id FROM campaigns) LIMIT 1
        """)
        guard removed > 0 || !forgotten.isEmpty else { return }
        try db.execute("""
        DELETE FROM ledger WHERE shown_at < ? AND campaign IN
            (SELECT key FROM campaign_keys WHERE id NOT IN (SELECT id FROM campaigns))
        """, [.date(cutoff)])
        try db.execute("""
        DELETE FROM campaign_keys WHERE key NOT IN (SELECT campaign FROM ledger) AND id NOT IN (SELECT id FROM campaigns)
        """)
        try db.execute("DELETE FROM thumbnails WHERE image_key NOT IN (SELECT image_key FROM campaigns WHERE image_key IS NOT NULL)")
    }

    /// Records newly fetched pictures of campaigns that are already stored (used when the
    /// feed itself did not change but a picture that failed earlier came through).
    public func updateImages(_ images: [Campaign.ID: ImageStatus]) throws {
        try db.transaction {
            for (id, status) in images {
                let key = try db.query("SELECT image_key FROM campaigns WHERE id = ?", [.id(id)]).first?.first?.text
                if let key { try applyImageStatus(status, campaignID: id, imageKey: key, waitingWritten: false) }
            }
        }
    }

    /// Notes a picture's status on a campaign's row. `waitingWritten`: the row was just
    /// written with why its picture waits (a feed applied), so only the rest is noted.
    func applyImageStatus(_ status: ImageStatus?, campaignID id: Campaign.ID, imageKey key: String,
                                  waitingWritten: Bool) throws {
        switch status {
        case .cached(let thumbnail?, let motion):
            try db.execute("INSERT OR REPLACE INTO thumbnails (image_key, jpeg, motion) VALUES (?, ?, ?)",
                           [.text(key), .blob(thumbnail), .optional(motion?.json)])
            try db.execute("""
                UPDATE campaigns SET image_problem = NULL, image_waiting = NULL
                WHERE id = ? AND (image_problem IS NOT NULL OR image_waiting IS NOT NULL)
                """, [.id(id)])
        case .cached(nil, _):
            guard !waitingWritten else { break }
            try db.execute("UPDATE campaigns SET image_waiting = NULL WHERE id = ? AND image_waiting IS NOT NULL", [.id(id)])
        case .refused(let reason):
            try db.execute("UPDATE campaigns SET image_problem = ?, image_waiting = NULL WHERE id = ?", [.text(reason), .id(id)])
        case .waiting(let reason):
            guard !waitingWritten else { break }
            try db.execute("UPDATE campaigns SET image_waiting = ? WHERE id = ?", [.text(reason), .id(id)])
        case nil:
            break
        }
    }

    /// Forgets which pictures were refused and their thumbnails (after the cache is
    /// cleared, the pictures are fetched and checked again).
    public func forgetImageProblems() throws {
        try db.transaction {
            try db.execute("UPDATE campaigns SET image_problem = NULL")
            try db.execute("DELETE FROM thumbnails")
        }
    }

    /// How many campaigns the last good feed holds.
}
