import CSQLite
import Foundation
import SplashCore

/// The device's memory: campaigns from the last good feed, the show ledger, the feed's
/// sync state and the poetry entry, in `splashboard.db` in the data folder.
///
/// Every logical change is one transaction. A show is committed (WAL, synchronous=FULL)
/// before `recordShow` returns, which is before the frame that shows it is presented.
///
/// About 450 lines: one type per database, by design, so that the schema and its
/// migrations are in one place; its parts are marked (campaigns, feed state, cache size,
/// poetry), and the ledger with its outboxes is in `CampaignStore+Ledger.swift`.
public final class CampaignStore: ShowLedger {
    public static let fileName = "splashboard.db"
    /// The schema this build writes; older files are migrated forward at open.
    public static let schemaVersion = 10

    public let db: SQLiteDatabase
    /// When the feed was last confirmed (a 304 counts), beside the database.
    let confirmation: FeedConfirmation
    /// The device id the tracking URLs' `{device}` is filled with (`device-id`).
    public var trackingDevice: String?

    /// Opens (creating the folder and file when needed) and migrates the database.
    /// In a data folder shared with a group (the package's 2770, where the display and the
    /// network process are different users), the database's files must be the group's to
    /// write: SQLite makes them 0644 less the umask, so the database is made here first,
    /// 0666 less the umask, and a file of this user's without group write gets it (the
    /// WAL and shared-memory files take the database's mode when SQLite makes them).
    static func shareFiles(in dataDir: String) {
        var folder = stat()
        guard stat(dataDir, &folder) == 0, folder.st_mode & S_IWGRP != 0 else { return }
        for name in [fileName, fileName + "-wal", fileName + "-shm"] {
            let path = dataDir + "/" + name
            if name == fileName, access(path, F_OK) != 0 {
                let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o666)
                if fd >= 0 { close(fd) }
            }
            var st = stat()
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid(), st.st_mode & S_IWGRP == 0 {
                chmod(path, (st.st_mode & 0o7777) | 0o060)
            }
        }
    }

    public init(dataDir: String) throws {
        Self.shareFiles(in: dataDir)
        do {
            try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        } catch {
            throw StoreError(path: dataDir, message: "cannot create the data folder: \(error.localizedDescription)",
                             code: SQLITE_CANTOPEN)
        }
        db = try SQLiteDatabase(path: dataDir + "/" + Self.fileName)
        confirmation = FeedConfirmation(dataDir: dataDir)
        try migrate()
    }

    /// A store that lives in memory only: what the kiosk runs on when its data folder
    /// cannot be written, so that the screen still shows the default picture and says why
    /// (nothing is counted, nothing is kept).
    public init(inMemoryBeside dataDir: String) throws {
        db = try SQLiteDatabase(path: ":memory:")
        confirmation = FeedConfirmation(dataDir: dataDir)
        try migrate()
    }

    private func migrate() throws {
        let version = try db.userVersion
        guard version < Self.schemaVersion else {
            if version > Self.schemaVersion {
                throw StoreError(path: db.path,
                                 message: "it was written by a newer Splashboard (schema \(version)); upgrade this one")
            }
            return
        }
        try db.transaction {
            if version < 1 {
                try db.execute("""
                CREATE TABLE campaigns (
                    id TEXT PRIMARY KEY,
                    pic_url TEXT NOT NULL,
                    show_time INTEGER NOT NULL,
                    title TEXT, detail TEXT,
                    start_at REAL, end_at REAL, updated_at REAL,
                    position INTEGER NOT NULL DEFAULT 0,
                    active INTEGER NOT NULL DEFAULT 1,
                    image_key TEXT,
                    image_problem TEXT,
                    thumbnail BLOB,  -- moved to the thumbnails table in schema 3
                    first_seen REAL NOT NULL,
                    last_seen REAL NOT NULL
                );
                CREATE TABLE shows (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    campaign_id TEXT NOT NULL,
                    shown_at REAL NOT NULL,
                    outcome TEXT CHECK (outcome IN ('skipped', 'completed', 'clicked'))
                );
                CREATE INDEX shows_by_campaign ON shows (campaign_id);
                CREATE TABLE feed_state (
                    feed_url TEXT PRIMARY KEY,
                    etag TEXT, last_modified TEXT,
                    last_success REAL, last_attempt REAL,
                    last_error TEXT,
                    message TEXT
                );
                CREATE TABLE poetry (
                    slot INTEGER PRIMARY KEY CHECK (slot = 1),
                    origin TEXT NOT NULL, author TEXT, content TEXT NOT NULL,
                    image_path TEXT, fetched_at REAL NOT NULL
                );
                """)
            }
            if version < 2 {
                // What a sync that changed nothing asks: the active campaigns' pictures.
                try db.execute("""
                CREATE INDEX campaigns_active_pictures ON campaigns (active, image_problem, image_key, pic_url)
                """)
            }
            if version < 3 {
                // Thumbnails are kept once per picture, not once per campaign: a feed of
                // thousands of campaigns often shares a handful of pictures.
                try db.execute("""
                CREATE TABLE thumbnails (image_key TEXT PRIMARY KEY, jpeg BLOB NOT NULL);
                INSERT OR IGNORE INTO thumbnails (image_key, jpeg)
                    SELECT image_key, thumbnail FROM campaigns WHERE thumbnail IS NOT NULL AND image_key IS NOT NULL;
                ALTER TABLE campaigns DROP COLUMN thumbnail;
                """)
            }
            if version < 4 {
                // Why a picture is not cached yet ("cache full", a network error), for the
                // operator view; cleared when it comes.
                try db.execute("ALTER TABLE campaigns ADD COLUMN image_waiting TEXT")
            }
            if version < 5 {
                // Proof of play: the ledger is the outbox. Each show gets a UUID, how it
                // ended (tap, key, timeout, click_through, interrupted) and when, and whether
                // it was reported (0 not yet, 1 sent, 2 given up: more than the outbox keeps).
                // Shows from before are history, not reported.
                try db.execute("""
                ALTER TABLE shows ADD COLUMN show_id TEXT;
                ALTER TABLE shows ADD COLUMN ended_by TEXT;
                ALTER TABLE shows ADD COLUMN ended_at REAL;
                ALTER TABLE shows ADD COLUMN reported INTEGER NOT NULL DEFAULT 0;
                UPDATE shows SET reported = 1, show_id = lower(hex(randomblob(16))),
                    ended_by = CASE outcome WHEN 'completed' THEN 'timeout' WHEN 'clicked' THEN 'click_through'
                                            WHEN 'skipped' THEN 'tap' ELSE 'interrupted' END;
                CREATE INDEX shows_unreported ON shows (id) WHERE reported = 0;
                """)
            }
            if version < 6 {
                // Tracking URLs (templates, one per line) and their outbox: a ping per show,
                // kind and URL at most (0 waiting, 1 sent, 2 given up after 24 h).
                try db.execute("""
                ALTER TABLE campaigns ADD COLUMN impression_urls TEXT;
                ALTER TABLE campaigns ADD COLUMN click_urls TEXT;
                CREATE TABLE pings (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    show_id TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('impression', 'click')),
                    url TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    state INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (show_id, kind, url)
                );
                CREATE INDEX pings_waiting ON pings (id) WHERE state = 0;
                """)
            }
            if version < 7 {
                // Campaign rules: dayparts, the feed's zone, daily cap, spacing, priority, own
                // countdown, QR link; and the shows by time, for the daily cap and rotation.
                try db.execute("""
                ALTER TABLE campaigns ADD COLUMN hours TEXT;
                ALTER TABLE campaigns ADD COLUMN days TEXT;
                ALTER TABLE campaigns ADD COLUMN time_zone TEXT;
                ALTER TABLE campaigns ADD COLUMN max_per_day INTEGER;
                ALTER TABLE campaigns ADD COLUMN min_interval INTEGER;
                ALTER TABLE campaigns ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE campaigns ADD COLUMN countdown INTEGER;
                ALTER TABLE campaigns ADD COLUMN link_url TEXT;
                CREATE INDEX shows_by_campaign_time ON shows (campaign_id, shown_at);
                """)
            }
            if version < 8 {
                // Freshness and the feed's warnings: when its content last changed (a
                // fingerprint of the document tells), and the warnings of the feed applied,
                // one per line, kept until the feed changes.
                try db.execute("""
                ALTER TABLE feed_state ADD COLUMN last_change REAL;
                ALTER TABLE feed_state ADD COLUMN content_hash TEXT;
                ALTER TABLE feed_state ADD COLUMN warnings TEXT;
                UPDATE feed_state SET last_change = last_success;
                """)
            }
            if version < 9 {
                // Lists are JSON arrays: joined by line breaks, a URL holding one became two.
                // The tracking URLs kept are the sendable ones, and the feed is read in full
                // at the next sync (its validators forgotten), which writes them afresh.
                for row in try db.rows("SELECT id, impression_urls, click_urls FROM campaigns "
                                       + "WHERE impression_urls IS NOT NULL OR click_urls IS NOT NULL") {
                    let id = row["id"].text ?? ""
                    func converted(_ text: String?) -> SQLiteDatabase.Value {
                        .optional(Self.encodeList((text ?? "").split(separator: "\n").map(String.init)
                            .filter { TrackingURL.problem($0, campaign: id) == nil }))
                    }
                    try db.execute("UPDATE campaigns SET impression_urls = ?, click_urls = ? WHERE id = ?",
                                   [converted(row["impression_urls"].text), converted(row["click_urls"].text),
                                    .text(row["id"].text ?? "")])
                }
                for row in try db.rows("SELECT feed_url, warnings FROM feed_state WHERE warnings IS NOT NULL") {
                    try db.execute("UPDATE feed_state SET warnings = ? WHERE feed_url = ?",
                                   [.optional(Self.encodeList((row["warnings"].text ?? "").split(separator: "\n").map(String.init))),
                                    .text(row["feed_url"].text ?? "")])
                }
                try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
                if let content = try db.rows("SELECT content FROM poetry WHERE slot = 1").first?["content"].text {
                    try db.execute("UPDATE poetry SET content = ? WHERE slot = 1",
                                   [.text(Self.encodeList(content.split(separator: "\n").map(String.init)) ?? "[]")])
                }
            }
            if version < 10 {
                // The ledger names a campaign by a small key, not by repeating its id in every
                // show and its indexes; `shows` stays, as a view, for whoever reads it.
                try db.execute("""
                CREATE TABLE campaign_keys (key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
                INSERT INTO campaign_keys (id) SELECT campaign_id FROM shows GROUP BY campaign_id ORDER BY MIN(id);
                CREATE TABLE ledger (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    campaign INTEGER NOT NULL REFERENCES campaign_keys (key),
                    shown_at REAL NOT NULL,
                    outcome TEXT CHECK (outcome IN ('skipped', 'completed', 'clicked')),
                    show_id TEXT, ended_by TEXT, ended_at REAL,
                    reported INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO ledger (id, campaign, shown_at, outcome, show_id, ended_by, ended_at, reported)
                    SELECT s.id, k.key, s.shown_at, s.outcome, s.show_id, s.ended_by, s.ended_at, s.reported
                    FROM shows s JOIN campaign_keys k ON k.id = s.campaign_id ORDER BY s.id;
                DROP TABLE shows;
                CREATE INDEX ledger_by_campaign_time ON ledger (campaign, shown_at);
                CREATE INDEX ledger_unreported ON ledger (id) WHERE reported = 0;
                CREATE VIEW shows AS
                    SELECT l.id, k.id AS campaign_id, l.shown_at, l.outcome, l.show_id, l.ended_by, l.ended_at, l.reported
                    FROM ledger l JOIN campaign_keys k ON k.key = l.campaign;
                """)
                // A campaign without an id had its picture's URL as its id, however long: one
                // over 200 characters takes the stand-in a feed now gives it, with its shows.
                for row in try db.rows("SELECT id FROM campaigns WHERE length(id) > ? AND id = pic_url",
                                       [.int(Int64(FeedDocument.maxID))]) {
                    guard let old = row["id"].text else { continue }
                    let stand = "picUrl-" + SHA256.hex(old).prefix(16)
                    try db.execute("UPDATE campaigns SET id = ? WHERE id = ?", [.text(stand), .text(old)])
                    try db.execute("UPDATE campaign_keys SET id = ? WHERE id = ?", [.text(stand), .text(old)])
                }
            }
            try db.execute("PRAGMA user_version = \(Self.schemaVersion)")
        }
    }

    // MARK: feed state

    /// What the last syncs of a feed left behind.
    public struct FeedState: Equatable {
        public var etag: String?
        public var lastModified: String?
        /// When a feed was last applied (its content read in full).
        public var lastSuccess: Date?
        public var lastAttempt: Date?
        public var lastError: String?
        public var message: String?
        /// When the feed's content last changed, as this device saw it.
        public var lastChange: Date?
        /// When the kiosk last confirmed its catalog with the feed: an applied feed or a 304.
        public var lastConfirmed: Date?
        /// The warnings of the feed applied (entries skipped, fields left out), kept until it changes.
        public var warnings: [String] = []
    }

    public func feedState(for url: URL) throws -> FeedState {
        let rows = try db.rows("""
        SELECT etag, last_modified, last_success, last_attempt, last_error, message, last_change, warnings
        FROM feed_state WHERE feed_url = ?
        """, [.text(url.absoluteString)])
        guard let r = rows.first else { return FeedState() }
        let success = r["last_success"].date
        let confirmed = confirmation.date(for: url).map { max($0, success ?? $0) } ?? success
        return FeedState(etag: r["etag"].text, lastModified: r["last_modified"].text, lastSuccess: success,
                         lastAttempt: r["last_attempt"].date, lastError: r["last_error"].text, message: r["message"].text,
                         lastChange: r["last_change"].date, lastConfirmed: confirmed,
                         warnings: Self.decodeList(r["warnings"].text))
    }

    /// The feed the stored campaigns came from: the one applied last; nil before any.
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
        """, [.text(url.absoluteString), .date(date), .text(error)])
    }

    // MARK: campaigns

    /// What a sync learned about one campaign's picture.
    public enum ImageStatus: Equatable {
        /// Cached and valid, with its thumbnail (nil: it was already cached earlier).
        case cached(thumbnail: [UInt8]?)
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
                      images: [String: ImageStatus], at date: Date, contentHash: String? = nil) throws {
        try apply(document, from: url, etag: etag, lastModified: lastModified, images: images, at: date, keys: PictureKeys(),
                  contentHash: contentHash)
    }

    public func apply(_ document: FeedDocument, from url: URL, etag: String?, lastModified: String?,
               images: [String: ImageStatus], at date: Date, keys: PictureKeys, contentHash: String? = nil) throws {
        try db.transaction {
            try db.execute("UPDATE campaigns SET active = 0 WHERE active = 1")
            let upsert = try db.statement("""
                INSERT INTO campaigns (id, pic_url, show_time, title, detail, start_at, end_at, updated_at, position,
                                       active, image_key, image_waiting, first_seen, last_seen, impression_urls, click_urls,
                                       hours, days, time_zone, max_per_day, min_interval, priority, countdown, link_url)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    pic_url = excluded.pic_url, show_time = excluded.show_time, title = excluded.title,
                    detail = excluded.detail, start_at = excluded.start_at, end_at = excluded.end_at,
                    updated_at = excluded.updated_at, position = excluded.position, active = 1,
                    image_problem = CASE WHEN campaigns.image_key = excluded.image_key THEN campaigns.image_problem END,
                    image_key = excluded.image_key, image_waiting = excluded.image_waiting, last_seen = excluded.last_seen,
                    impression_urls = excluded.impression_urls, click_urls = excluded.click_urls,
                    hours = excluded.hours, days = excluded.days, time_zone = excluded.time_zone,
                    max_per_day = excluded.max_per_day, min_interval = excluded.min_interval,
                    priority = excluded.priority, countdown = excluded.countdown, link_url = excluded.link_url
                """)
            for c in document.campaigns {
                let (key, picText) = keys.of(c.picURL)
                // Why the picture waits goes in with the row; anything else clears it.
                var waiting: String?
                if case .waiting(let reason) = images[c.id] { waiting = reason }
                try db.run(upsert, [.text(c.id), .text(picText), .int(Int64(c.showTime)), .optional(c.title),
                                    .optional(c.detail), .date(c.startAt), .date(c.endAt), .date(c.updatedAt),
                                    .int(Int64(c.position)), .text(key), .optional(waiting), .date(date), .date(date),
                                    .optional(Self.encodeList(c.impressionURLs)), .optional(Self.encodeList(c.clickURLs)),
                                    .optional(c.hours.isEmpty ? nil : c.hours.map(\.text).joined(separator: ",")),
                                    .optional(c.days.isEmpty ? nil : c.days.sorted().map(\.text).joined(separator: ",")),
                                    .optional(c.timeZone), .optionalInt(c.maxPerDay), .optionalInt(c.minInterval),
                                    .int(Int64(c.priority)), .optionalInt(c.countdown), .optional(c.linkURL?.absoluteString)])
                try applyImageStatus(images[c.id], campaignID: c.id, imageKey: key, waitingWritten: true)
            }
            try db.execute("""
            INSERT INTO feed_state (feed_url, etag, last_modified, last_success, last_attempt, last_error, message,
                                    last_change, content_hash, warnings)
            VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)
            ON CONFLICT (feed_url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                last_success = excluded.last_success, last_attempt = excluded.last_attempt, last_error = NULL,
                message = excluded.message, warnings = excluded.warnings,
                last_change = CASE WHEN excluded.content_hash IS NOT NULL AND feed_state.content_hash IS excluded.content_hash
                                   AND feed_state.last_change IS NOT NULL THEN feed_state.last_change ELSE excluded.last_change END,
                content_hash = excluded.content_hash
            """, [.text(url.absoluteString), .optional(etag), .optional(lastModified), .date(date), .date(date),
                  .optional(document.message), .date(date), .optional(contentHash),
                  .optional(Self.encodeList(document.warnings.map(Self.oneLine)))])
            try prune(before: date.addingTimeInterval(-Self.retention))
            // The campaigns up now are this feed's: another feed, even unchanged since it was
            // last read, must be read in full if the kiosk goes back to it (not answered 304).
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL WHERE feed_url != ?",
                           [.text(url.absoluteString)])
        }
    }

    /// A warning on one line (a feed's text may hold line breaks).
    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    /// How long a campaign gone from the feed is kept, with its shows: 90 days. After that
    /// it is forgotten (a feed that names it again starts its count afresh), so that feeds
    /// that keep naming new campaigns cannot grow the database without end.
    public static let retention: TimeInterval = 90 * 86_400

    /// Forgets campaigns last seen in a feed before `cutoff`, their shows recorded before
    /// it, and thumbnails no campaign shows any more.
    private func prune(before cutoff: Date) throws {
        let old = try db.query("SELECT id FROM campaigns WHERE active = 0 AND last_seen < ?", [.date(cutoff)])
        guard !old.isEmpty else { return }
        let forget = try db.statement("""
        DELETE FROM ledger WHERE campaign = (SELECT key FROM campaign_keys WHERE id = ?) AND shown_at < ?
        """)
        for row in old {
            guard let id = row[0].text else { continue }
            try db.run(forget, [.text(id), .date(cutoff)])
        }
        try db.execute("DELETE FROM campaigns WHERE active = 0 AND last_seen < ?", [.date(cutoff)])
        try db.execute("""
        DELETE FROM campaign_keys WHERE key NOT IN (SELECT campaign FROM ledger) AND id NOT IN (SELECT id FROM campaigns)
        """)
        try db.execute("DELETE FROM thumbnails WHERE image_key NOT IN (SELECT image_key FROM campaigns WHERE image_key IS NOT NULL)")
    }

    /// Records newly fetched pictures of campaigns that are already stored (used when the
    /// feed itself did not change but a picture that failed earlier came through).
    public func updateImages(_ images: [String: ImageStatus]) throws {
        try db.transaction {
            for (id, status) in images {
                let key = try db.query("SELECT image_key FROM campaigns WHERE id = ?", [.text(id)]).first?.first?.text
                if let key { try applyImageStatus(status, campaignID: id, imageKey: key, waitingWritten: false) }
            }
        }
    }

    /// Notes a picture's status on a campaign's row. `waitingWritten`: the row was just
    /// written with why its picture waits (a feed applied), so only the rest is noted.
    private func applyImageStatus(_ status: ImageStatus?, campaignID id: String, imageKey key: String,
                                  waitingWritten: Bool) throws {
        switch status {
        case .cached(let thumbnail?):
            try db.execute("INSERT OR REPLACE INTO thumbnails (image_key, jpeg) VALUES (?, ?)", [.text(key), .blob(thumbnail)])
            try db.execute("""
                UPDATE campaigns SET image_problem = NULL, image_waiting = NULL
                WHERE id = ? AND (image_problem IS NOT NULL OR image_waiting IS NOT NULL)
                """, [.text(id)])
        case .cached(nil):
            guard !waitingWritten else { break }
            try db.execute("UPDATE campaigns SET image_waiting = NULL WHERE id = ? AND image_waiting IS NOT NULL", [.text(id)])
        case .refused(let reason):
            try db.execute("UPDATE campaigns SET image_problem = ?, image_waiting = NULL WHERE id = ?", [.text(reason), .text(id)])
        case .waiting(let reason):
            guard !waitingWritten else { break }
            try db.execute("UPDATE campaigns SET image_waiting = ? WHERE id = ?", [.text(reason), .text(id)])
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
    public func activeCount() throws -> Int {
        Int(try db.query("SELECT COUNT(*) FROM campaigns WHERE active = 1").first?.first?.int ?? 0)
    }

    /// The pictures of active campaigns not known to be refused, each image key once.
    public func activePictures() throws -> [(key: String, url: URL)] {
        try db.rows("""
        SELECT image_key, MIN(pic_url) AS pic_url FROM campaigns WHERE active = 1 AND image_problem IS NULL GROUP BY image_key
        """)
            .compactMap { row in
                guard let key = row["image_key"].text, let url = row["pic_url"].text.flatMap(URL.init(string:)) else {
                    return nil
                }
                return (key, url)
            }
    }

    /// The stored thumbnail of the picture with `key`.
    public func thumbnail(forImageKey key: String) throws -> [UInt8]? {
        try db.query("SELECT jpeg FROM thumbnails WHERE image_key = ?", [.text(key)]).first?.first?.blob
    }

    /// The active campaigns that show the picture with `key`.
    public func campaigns(withImageKey key: String) throws -> [String] {
        try db.query("SELECT id FROM campaigns WHERE active = 1 AND image_key = ?", [.text(key)]).compactMap { $0[0].text }
    }

    /// A stored campaign with what is known about it.
    public struct StoredCampaign: Equatable {
        public var campaign: Campaign
        public var active: Bool
        public var shows: Int
        public var imageKey: String
        public var imageProblem: String?
        /// Why the picture is not cached yet, when a sync could not fetch it.
        public var imageWaiting: String?
        /// The thumbnail's JPEG bytes, when they were asked for.
        public var thumbnail: [UInt8]?
        /// Whether a thumbnail is stored (asked for or not).
        public var hasThumbnail: Bool
        /// When it was last shown, from the ledger.
        public var lastShownAt: Date? = nil
    }

    /// All stored campaigns, active ones in feed order first; thumbnails only when asked
    /// for (they are the bulk of the rows).
    public func campaigns(includeInactive: Bool = false, thumbnails: Bool = true) throws -> [StoredCampaign] {
        // One pass over the ledger gives both the counts and the last shows.
        let history = try showHistory()
        let rows = try db.rows("""
        SELECT c.id, c.pic_url, c.show_time, c.title, c.detail, c.start_at, c.end_at, c.updated_at, c.position,
               c.active, c.image_key, c.image_problem, c.image_waiting, c.impression_urls, c.click_urls,
               c.hours, c.days, c.time_zone, c.max_per_day, c.min_interval, c.priority, c.countdown, c.link_url,
               \(thumbnails ? "t.jpeg" : "NULL") AS thumbnail,
               t.image_key IS NOT NULL AS has_thumbnail
        FROM campaigns c LEFT JOIN thumbnails t ON t.image_key = c.image_key
        \(includeInactive ? "" : "WHERE c.active = 1") ORDER BY c.active DESC, c.position
        """)
        // Every cap of the feed is applied again to what is read: the network process wrote
        // these rows, and the display trusts it no more than the network.
        return rows.compactMap { r in
            guard let id = r["id"].text, !id.isEmpty, id.count <= FeedDocument.maxID,
                  let picText = r["pic_url"].text, TrackingURL.textProblem(picText) == nil,
                  let pic = URL(string: picText) else { return nil }
            var campaign = Campaign(id: id, picURL: pic, showTime: max(0, Int(r["show_time"].int ?? 0)),
                                    title: r["title"].text.map { String($0.prefix(FeedDocument.maxTitle)) },
                                    detail: r["detail"].text.map { String($0.prefix(FeedDocument.maxDetail)) },
                                    startAt: r["start_at"].date, endAt: r["end_at"].date,
                                    updatedAt: r["updated_at"].date, position: Int(r["position"].int ?? 0))
            campaign.impressionURLs = Array(Self.decodeList(r["impression_urls"].text).filter { TrackingURL.problem($0, campaign: id) == nil }
                .prefix(TrackingURL.perCampaign))
            campaign.clickURLs = Array(Self.decodeList(r["click_urls"].text).filter { TrackingURL.problem($0, campaign: id) == nil }
                .prefix(TrackingURL.perCampaign))
            campaign.hours = (r["hours"].text ?? "").split(separator: ",").compactMap { DailyWindow(String($0)) }
            campaign.days = Set((r["days"].text ?? "").split(separator: ",").compactMap { Weekday(String($0)) })
            campaign.timeZone = r["time_zone"].text
            campaign.maxPerDay = r["max_per_day"].int.map { max(0, Int($0)) }
            campaign.minInterval = r["min_interval"].int.map { max(0, Int($0)) }
            campaign.priority = Int(r["priority"].int ?? 0)
            campaign.countdown = r["countdown"].int.map { min(30, max(1, Int($0))) }
            campaign.linkURL = r["link_url"].text.flatMap { $0.count <= 1024 && TrackingURL.textProblem($0) == nil ? URL(string: $0) : nil }
            return StoredCampaign(campaign: campaign, active: r["active"].int == 1, shows: history[id]?.count ?? 0,
                                  imageKey: r["image_key"].text ?? ImageCache.key(for: pic),
                                  imageProblem: r["image_problem"].text, imageWaiting: r["image_waiting"].text,
                                  thumbnail: r["thumbnail"].blob,
                                  hasThumbnail: r["has_thumbnail"].int == 1, lastShownAt: history[id]?.last)
        }
    }

    /// The stored thumbnails of these campaigns, by campaign id (the operator view's page:
    /// a library of thousands is never read whole).
    public func thumbnails(ofCampaigns ids: [String]) throws -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        for id in ids {
            let rows = try db.rows("""
            SELECT t.jpeg FROM campaigns c JOIN thumbnails t ON t.image_key = c.image_key WHERE c.id = ?
            """, [.text(id)])
            if let jpeg = rows.first?["jpeg"].blob { found[id] = jpeg }
        }
        return found
    }

    /// The active campaigns as the kiosk sees them, with their cached pictures.
    public func catalog(cache: ImageCache) throws -> [CatalogEntry] {
        try campaigns(thumbnails: false).map { stored in
            var entry = CatalogEntry(campaign: stored.campaign, shows: stored.shows,
                                     imagePath: ImageCache.isCacheName(stored.imageKey) && cache.contains(key: stored.imageKey)
                                        ? cache.path(forKey: stored.imageKey) : nil,
                                     imageProblem: stored.imageProblem, imageWaiting: stored.imageWaiting)
            entry.lastShownAt = stored.lastShownAt
            // Only campaigns with a daily cap, shown before, need their recent shows (up to the cap).
            if stored.lastShownAt != nil, let cap = stored.campaign.maxPerDay, cap > 0 {
                entry.recentShows = try recentShows(of: stored.campaign.id, limit: min(cap, CatalogEntry.recentLimit))
            }
            return entry
        }
    }

    /// A list as stored: a JSON array of strings (no separator that an item could hold);
    /// nil for none.
    static func encodeList(_ items: [String]) -> String? {
        guard !items.isEmpty, let data = try? JSONSerialization.data(withJSONObject: items) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A stored list; what is not a JSON array of strings reads as none.
    static func decodeList(_ text: String?) -> [String] {
        guard let text, let items = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else { return [] }
        return items.compactMap { $0 as? String }
    }

    // MARK: cache size

    /// Trims the picture cache to `capBytes`, least recently used first, never removing a
    /// picture that must stay: an eligible campaign's, or the kept poem's. What must stay is
    /// read in the same write transaction as the eviction, so no other writer (a sync in the
    /// other process, another command) can make a picture needed in between; when it cannot
    /// be read, this throws and nothing is removed. `wanted` keeps more (the pictures of a
    /// feed being applied). Returns the keys removed.
    @discardableResult
    public func evict(_ cache: ImageCache, toFit capBytes: Int, now: Date, alsoKeeping wanted: Set<String> = [],
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String] {
        guard cache.usage() > capBytes else { return [] }
        return try db.transaction {
            let all = try catalog(cache: cache)
            // Eligible as the kiosk would judge it: this device's zone, its clock's trust.
            let context = DeviceRules.context(at: now, catalog: all, environment: environment)
            let eligible = all.filter { $0.isEligible(at: now, context: context) }
                .compactMap { $0.imagePath.map { URL(fileURLWithPath: $0).lastPathComponent } }
            var keep = wanted.union(eligible)
            let poem = try db.query("SELECT image_path FROM poetry WHERE slot = 1").first?.first?.text
            if let poem, poem.hasPrefix(cache.folder + "/") { keep.insert(URL(fileURLWithPath: poem).lastPathComponent) }
            // When each picture was last shown, from the ledger: the display may not be able to
            // touch the files it shows (the service's cache is the network process's).
            var shown: [String: Date] = [:]
            for row in try db.rows("""
            SELECT c.image_key, MAX(l.shown_at) AS last FROM campaigns c
            JOIN campaign_keys k ON k.id = c.id JOIN ledger l ON l.campaign = k.key
            WHERE c.image_key IS NOT NULL GROUP BY c.image_key
            """) {
                if let key = row["image_key"].text, let last = row["last"].date { shown[key] = last }
            }
            return cache.evict(toFit: capBytes, protecting: keep, shown: shown)
        }
    }

    // MARK: poetry

    /// Keeps `entry` as the last good poem, shown at the next start.
    public func savePoetry(_ entry: PoetryEntry, at date: Date) throws {
        try db.execute("""
        INSERT INTO poetry (slot, origin, author, content, image_path, fetched_at) VALUES (1, ?, ?, ?, ?, ?)
        ON CONFLICT (slot) DO UPDATE SET origin = excluded.origin, author = excluded.author,
            content = excluded.content, image_path = excluded.image_path, fetched_at = excluded.fetched_at
        """, [.text(entry.origin), .optional(entry.author), .text(Self.encodeList(entry.lines) ?? "[]"),
              .optional(entry.imagePath), .date(date)])
    }

    /// The last good poem, marked as coming from the cache; its picture only if still on disk.
    public func loadPoetry(imageURL: URL?) throws -> PoetryEntry? {
        guard let r = try db.rows("SELECT origin, author, content, image_path FROM poetry WHERE slot = 1").first,
              let origin = r["origin"].text, let content = r["content"].text
        else { return nil }
        let path = r["image_path"].text.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        return PoetryEntry(origin: origin, author: r["author"].text, lines: Self.decodeList(content),
                           imagePath: path, imageURL: imageURL, source: .cache)
    }
}
