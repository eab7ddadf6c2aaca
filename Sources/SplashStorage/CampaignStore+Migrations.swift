import CSQLite
import FoundationEssentials
import SplashCore

/// The schema, migration by migration: each `Migration` takes a database from the schema
/// before it to its own, in the order registered; a database is taken forward by every one
/// above its `user_version`, all in one transaction, and the file then says which schema
/// it has.
extension CampaignStore {
    /// Every migration, in order, numbered from 1 without a gap (`MigrationTests` holds them
    /// to it, and a database migrated from each to one made fresh).
    static let migrations: [Migration] = [
        Migration(1, "campaigns, shows, the feed's state and the poem") { db in
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
        },
        Migration(2, "an index of the active campaigns' pictures") { db in
            // What a sync that changed nothing asks: the active campaigns' pictures.
            try db.execute("""
            CREATE INDEX campaigns_active_pictures ON campaigns (active, image_problem, image_key, pic_url)
            """)
        },
        Migration(3, "thumbnails once per picture") { db in
            // Thumbnails are kept once per picture, not once per campaign: a feed of
            // thousands of campaigns often shares a handful of pictures.
            try db.execute("""
            CREATE TABLE thumbnails (image_key TEXT PRIMARY KEY, jpeg BLOB NOT NULL);
            INSERT OR IGNORE INTO thumbnails (image_key, jpeg)
                SELECT image_key, thumbnail FROM campaigns WHERE thumbnail IS NOT NULL AND image_key IS NOT NULL;
            ALTER TABLE campaigns DROP COLUMN thumbnail;
            """)
        },
        Migration(4, "why a picture waits") { db in
            // Why a picture is not cached yet ("cache full", a network error), for the
            // operator view; cleared when it comes.
            try db.execute("ALTER TABLE campaigns ADD COLUMN image_waiting TEXT")
        },
        Migration(5, "proof of play: the ledger as the outbox") { db in
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
        },
        Migration(6, "tracking URLs and their pings") { db in
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
        },
        Migration(7, "campaign rules") { db in
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
        },
        Migration(8, "the feed's freshness and warnings") { db in
            // Freshness and the feed's warnings: when its content last changed (a
            // fingerprint of the document tells), and the warnings of the feed applied,
            // one per line, kept until the feed changes.
            try db.execute("""
            ALTER TABLE feed_state ADD COLUMN last_change REAL;
            ALTER TABLE feed_state ADD COLUMN content_hash TEXT;
            ALTER TABLE feed_state ADD COLUMN warnings TEXT;
            UPDATE feed_state SET last_change = last_success;
            """)
        },
        Migration(9, "lists as JSON arrays") { db in
            // Lists are JSON arrays: joined by line breaks, a URL holding one became two.
            // The tracking URLs kept are the sendable ones, and the feed is read in full
            // at the next sync (its validators forgotten), which writes them afresh.
            for row in try db.rows("SELECT id, impression_urls, click_urls FROM campaigns "
                                   + "WHERE impression_urls IS NOT NULL OR click_urls IS NOT NULL") {
                let id = try row["id"].text ?? ""
                func converted(_ text: String?) -> SQLiteDatabase.Value {
                    .optional(CampaignStore.encodeList((text ?? "").split(separator: "\n").map(String.init)
                        .filter { TrackingURL.problem($0, campaign: id) == nil }))
                }
                try db.execute("UPDATE campaigns SET impression_urls = ?, click_urls = ? WHERE id = ?",
                               [converted(row["impression_urls"].text), converted(row["click_urls"].text),
                                .text(row["id"].text ?? "")])
            }
            for row in try db.rows("SELECT feed_url, warnings FROM feed_state WHERE warnings IS NOT NULL") {
                try db.execute("UPDATE feed_state SET warnings = ? WHERE feed_url = ?",
                               [.optional(CampaignStore.encodeList((row["warnings"].text ?? "").split(separator: "\n").map(String.init))),
                                .text(row["feed_url"].text ?? "")])
            }
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
            if let content = try db.rows("SELECT content FROM poetry WHERE slot = 1").first?["content"].text {
                try db.execute("UPDATE poetry SET content = ? WHERE slot = 1",
                               [.text(CampaignStore.encodeList(content.split(separator: "\n").map(String.init)) ?? "[]")])
            }
        },
        Migration(10, "the ledger keyed by campaign") { db in
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
                guard let old = try row["id"].text else { continue }
                let stand = "picUrl-" + SHA256.hex(old).prefix(16)
                try db.execute("UPDATE campaigns SET id = ? WHERE id = ?", [.text(stand), .text(old)])
                try db.execute("UPDATE campaign_keys SET id = ? WHERE id = ?", [.text(stand), .text(old)])
            }
        },
        Migration(11, "the feed's screen schedule") { db in
            // The feed's screen schedule (its `screen` object), as the feed wrote it.
            try db.execute("ALTER TABLE feed_state ADD COLUMN screen TEXT")
            // A feed that has one is read in full once, not answered 304 without it.
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
        },
        Migration(12, "clips, and each show's media") { db in
            // A campaign's clip: its URL as the feed gave it, and what a sync found of it —
            // its facts once probed, why it is not played, why it is not cached yet.
            try db.execute("""
            ALTER TABLE campaigns ADD COLUMN video_url TEXT;
            ALTER TABLE campaigns ADD COLUMN video_facts TEXT;
            ALTER TABLE campaigns ADD COLUMN video_problem TEXT;
            ALTER TABLE campaigns ADD COLUMN video_waiting TEXT;
            CREATE INDEX campaigns_active_videos ON campaigns (active, video_url) WHERE video_url IS NOT NULL;
            """)
            // Each show says whether it played a clip or showed a picture (proof of play's
            // `show.media`); earlier shows were pictures.
            try db.execute("""
            ALTER TABLE ledger ADD COLUMN media TEXT;
            DROP VIEW shows;
            CREATE VIEW shows AS
                SELECT l.id, k.id AS campaign_id, l.shown_at, l.outcome, l.show_id, l.ended_by, l.ended_at, l.reported,
                       l.media
                FROM ledger l JOIN campaign_keys k ON k.key = l.campaign;
            """)
            // Feeds are read in full once, so that their clips are seen.
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
        },
        Migration(13, "animated GIFs' facts") { db in
            // An animated GIF's facts, kept with its picture's thumbnail (so they go with
            // the picture: a new picture, a new row).
            try db.execute("ALTER TABLE thumbnails ADD COLUMN motion TEXT")
            // GIFs refused before are fetched and checked again.
            try db.execute("UPDATE campaigns SET image_problem = NULL WHERE image_problem LIKE 'GIF images are not supported%'")
        },
        Migration(14, "what the server said of each cached file") { db in
            // What the server said of each cached picture and clip when it came (by cache key):
            // its validators for a conditional request, and how long it stays fresh.
            try db.execute("""
            CREATE TABLE cached_files (
                key TEXT PRIMARY KEY, etag TEXT, last_modified TEXT, max_age REAL,
                no_cache INTEGER NOT NULL DEFAULT 0, fetched_at REAL NOT NULL
            )
            """)
        },
        Migration(15, "each picture's focal point") { db in
            // The point of a campaign's picture a crop keeps in view (`focus`: "x,y").
            try db.execute("ALTER TABLE campaigns ADD COLUMN focus TEXT")
            // A feed that has one is read in full once, not answered 304 without it.
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
        },
        Migration(16, "pictures for portrait screens") { db in
            // A campaign's picture for portrait screens (`picUrlPortrait`): its URL as the feed
            // gave it, its cache key, and why it was refused (its picUrl is shown instead).
            try db.execute("""
            ALTER TABLE campaigns ADD COLUMN portrait_url TEXT;
            ALTER TABLE campaigns ADD COLUMN portrait_key TEXT;
            ALTER TABLE campaigns ADD COLUMN portrait_problem TEXT;
            """)
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
        },
        Migration(17, "the device groups a campaign is for") { db in
            // A campaign's `groups` as a JSON list of names; NULL: for every device.
            try db.execute("ALTER TABLE campaigns ADD COLUMN groups TEXT")
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
        },
        Migration(18, "the device groups a feed was applied for") { db in
            // The groups (comma-separated) the device was in when the feed was applied: the
            // group's screen schedule stored was chosen for them, so new groups read it in full.
            try db.execute("ALTER TABLE feed_state ADD COLUMN device_groups TEXT")
        },
        Migration(19, "no secret on disk, validators bounded") { db in
            // A feed is named on disk by its `storedName` (no user, password or query); its
            // last error, which may name the address whole, is written again at the next sync.
            for row in try db.rows("SELECT feed_url FROM feed_state") {
                guard let old = try row["feed_url"].text, let url = URL(string: old), url.storedName != old else { continue }
                try db.execute("DELETE FROM feed_state WHERE feed_url = ?", [.text(url.storedName)])
                try db.execute("UPDATE feed_state SET feed_url = ? WHERE feed_url = ?", [.text(url.storedName), .text(old)])
            }
            try db.execute("UPDATE feed_state SET last_error = NULL")
            // Validators a server wrote without bounds: dropped, the file fetched in full next time.
            try db.execute("""
            UPDATE cached_files SET etag = NULL WHERE length(CAST(etag AS BLOB)) > 256 OR etag GLOB '*[^ -~]*';
            UPDATE cached_files SET last_modified = NULL WHERE last_modified GLOB '*[^ -~]*';
            UPDATE feed_state SET etag = NULL WHERE length(CAST(etag AS BLOB)) > 256 OR etag GLOB '*[^ -~]*';
            """)
        },
        Migration(20, "the QR code's caption") { db in
            // A campaign's `linkLabel`: the words under its QR code; NULL: the link's host.
            try db.execute("ALTER TABLE campaigns ADD COLUMN link_label TEXT")
            try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
        },
        Migration(21, "a clip's refused size limit as a number") { db in
            // The video-max-mb a clip was refused for as too large, so that a raised limit tries it
            // again without the refusal's words being read. Those stored before are cleared: each
            // such clip is fetched (and judged) once more.
            try db.execute("ALTER TABLE campaigns ADD COLUMN video_refused_mb INTEGER")
            try db.execute("UPDATE campaigns SET video_problem = NULL WHERE video_problem LIKE 'the clip is larger than video-max-mb (%'")
        },
    ]

    func migrate() throws {
        try migrate(upTo: Self.schemaVersion)
    }

    /// Takes the database to schema `target` (the newest unless a test asks for an older
    /// one); a database of a newer schema than this program's is refused.
    func migrate(upTo target: Int) throws {
        let version = try db.userVersion
        guard version < target else {
            if version > Self.schemaVersion {
                throw StoreError(path: db.path,
                                 message: "it was written by a newer Splashboard (schema \(version)); upgrade this one")
            }
            return
        }
        try db.transaction {
            for step in Self.migrations where step.version > version && step.version <= target {
                try step.apply(db)
            }
            try db.execute("PRAGMA user_version = \(target)")
        }
    }
}
