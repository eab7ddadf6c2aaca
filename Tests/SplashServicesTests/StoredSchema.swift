/// The schema as the newest migration leaves it, each table, index and view with the
/// statement SQLite keeps for it (`MigrationTests.schema`): what a new database is held
/// to. Kept here as text, not made at test time by the migrations it checks: a change to the schema
/// is a new migration and this list updated with it, and an old migration changed in
/// place shows as a schema that moved while its version did not.
enum StoredSchema {
    /// The version these entries are.
    static let version = 21
    static let entries: [String] = [
        "index | campaigns_active_pictures | CREATE INDEX campaigns_active_pictures ON campaigns (active, image_problem, image_key, pic_url)",
        "index | campaigns_active_videos | CREATE INDEX campaigns_active_videos ON campaigns (active, video_url) WHERE video_url IS NOT NULL",
        "index | ledger_by_campaign_time | CREATE INDEX ledger_by_campaign_time ON ledger (campaign, shown_at)",
        "index | ledger_unreported | CREATE INDEX ledger_unreported ON ledger (id) WHERE reported = 0",
        "index | pings_waiting | CREATE INDEX pings_waiting ON pings (id) WHERE state = 0",
        "table | cached_files | CREATE TABLE cached_files (\n    key TEXT PRIMARY KEY, etag TEXT, last_modified TEXT, max_age REAL,\n    no_cache INTEGER NOT NULL DEFAULT 0, fetched_at REAL NOT NULL\n)",
        "table | campaign_keys | CREATE TABLE campaign_keys (key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE)",
        "table | campaigns | CREATE TABLE campaigns (\n    id TEXT PRIMARY KEY,\n    pic_url TEXT NOT NULL,\n    show_time INTEGER NOT NULL,\n    title TEXT, detail TEXT,\n    start_at REAL, end_at REAL, updated_at REAL,\n    position INTEGER NOT NULL DEFAULT 0,\n    active INTEGER NOT NULL DEFAULT 1,\n    image_key TEXT,\n    image_problem TEXT,\n    first_seen REAL NOT NULL,\n    last_seen REAL NOT NULL\n, image_waiting TEXT, impression_urls TEXT, click_urls TEXT, hours TEXT, days TEXT, time_zone TEXT, max_per_day INTEGER, min_interval INTEGER, priority INTEGER NOT NULL DEFAULT 0, countdown INTEGER, link_url TEXT, video_url TEXT, video_facts TEXT, video_problem TEXT, video_waiting TEXT, focus TEXT, portrait_url TEXT, portrait_key TEXT, portrait_problem TEXT, groups TEXT, link_label TEXT, video_refused_mb INTEGER)",
        "table | feed_state | CREATE TABLE feed_state (\n    feed_url TEXT PRIMARY KEY,\n    etag TEXT, last_modified TEXT,\n    last_success REAL, last_attempt REAL,\n    last_error TEXT,\n    message TEXT\n, last_change REAL, content_hash TEXT, warnings TEXT, screen TEXT, device_groups TEXT)",
        "table | ledger | CREATE TABLE ledger (\n    id INTEGER PRIMARY KEY AUTOINCREMENT,\n    campaign INTEGER NOT NULL REFERENCES campaign_keys (key),\n    shown_at REAL NOT NULL,\n    outcome TEXT CHECK (outcome IN ('skipped', 'completed', 'clicked')),\n    show_id TEXT, ended_by TEXT, ended_at REAL,\n    reported INTEGER NOT NULL DEFAULT 0\n, media TEXT)",
        "table | pings | CREATE TABLE pings (\n    id INTEGER PRIMARY KEY AUTOINCREMENT,\n    show_id TEXT NOT NULL,\n    kind TEXT NOT NULL CHECK (kind IN ('impression', 'click')),\n    url TEXT NOT NULL,\n    created_at REAL NOT NULL,\n    state INTEGER NOT NULL DEFAULT 0,\n    UNIQUE (show_id, kind, url)\n)",
        "table | poetry | CREATE TABLE poetry (\n    slot INTEGER PRIMARY KEY CHECK (slot = 1),\n    origin TEXT NOT NULL, author TEXT, content TEXT NOT NULL,\n    image_path TEXT, fetched_at REAL NOT NULL\n)",
        "table | thumbnails | CREATE TABLE thumbnails (image_key TEXT PRIMARY KEY, jpeg BLOB NOT NULL, motion TEXT)",
        "view | shows | CREATE VIEW shows AS\n    SELECT l.id, k.id AS campaign_id, l.shown_at, l.outcome, l.show_id, l.ended_by, l.ended_at, l.reported,\n           l.media\n    FROM ledger l JOIN campaign_keys k ON k.key = l.campaign",
    ]
}
