import Foundation
import SplashCore
@testable import SplashServices
@testable import SplashStorage
import SplashTestSupport
import Testing

@Suite struct CampaignStoreTests {
    /// In a folder shared with a group (the package's 2770: the display and the network
    /// process are different users) the database's files are the group's to write, made
    /// so whoever opens it first; elsewhere they are left as the umask makes them.
    /// Only a cached image's own path is one: the folder itself, then a name of 64 hex
    /// digits (the first picture guessed at start is read through it before the cache opens).
    @Test func aCachedImageIsTheFoldersOwnNameOnly() {
        let folder = "/var/cache/splashboard"
        let name = String(repeating: "ab", count: 32)
        #expect(ImageCache.holds(folder + "/" + name, in: folder))
        #expect(ImageCache.holds(folder + "/./" + name, in: folder + "/"))
        #expect(!ImageCache.holds(folder + "/sub/" + name, in: folder))
        #expect(!ImageCache.holds(folder + "/sub/../../" + name, in: folder))
        #expect(!ImageCache.holds(folder + "/" + name + ".jpg", in: folder))
        #expect(!ImageCache.holds("/etc/hostname", in: folder))
    }

    @Test func aSharedDataFolderKeepsTheDatabaseGroupWritable() throws {
        let shared = try temporaryFolder()
        #expect(chmod(shared, 0o2770) == 0)
        func mode(_ path: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0 }
        let store = try CampaignStore(dataDir: shared)
        try store.recordShow(campaignID: "a", at: Date())
        for name in [CampaignStore.fileName, CampaignStore.fileName + "-wal", CampaignStore.fileName + "-shm"] {
            let found = try mode(shared + "/" + name)
            #expect(found & 0o060 == 0o060, "\(name): \(String(found, radix: 8))")
        }
        // One made without group write (by SQLite, 0644 less the umask) gets it at the next open.
        #expect(chmod(shared + "/" + CampaignStore.fileName, 0o640) == 0)
        _ = try CampaignStore(dataDir: shared)
        #expect(try mode(shared + "/" + CampaignStore.fileName) == 0o660)
        let own = try temporaryFolder()
        _ = try CampaignStore(dataDir: own)
        #expect(try mode(own + "/" + CampaignStore.fileName) & 0o020 == 0)
    }

    /// The feed's message is held to the feed's cap by whoever reads it, the kiosk at start
    /// included: the network process wrote it, and is trusted no more than the network.
    @Test func aStoredMessageIsReadAtMostTheFeedsCap() throws {
        let store = try CampaignStore(dataDir: try temporaryFolder())
        let feed = URL(string: "https://feed.test/feed.json")!
        try store.db.execute("INSERT INTO feed_state (feed_url, message) VALUES (?, ?)",
                             [.text(feed.absoluteString), .text(String(repeating: "长", count: 5_000))])
        #expect(try store.feedState(for: feed).message?.count == FeedDocument.maxMessage)
    }

    @Test func theDatabaseIsVersionedAndInWALMode() throws {
        let dir = try temporaryFolder()
        let store = try CampaignStore(dataDir: dir + "/data")
        // The schema this code is at, written out: a new migration must say so here too.
        #expect(try store.db.userVersion == 21)
        #expect(try store.db.query("PRAGMA journal_mode").first?.first?.text == "wal")
        #expect(try store.db.query("PRAGMA synchronous").first?.first?.int == 2)
        #expect(try store.db.query("PRAGMA integrity_check").first?.first?.text == "ok")
        // Opening again migrates nothing and keeps data.
        try store.recordShow(campaignID: "x", at: Date())
        let again = try CampaignStore(dataDir: dir + "/data")
        #expect(try again.showCounts() == ["x": 1])
    }

    /// Eviction fails closed: when what must stay cannot be read, nothing is removed.
    @Test func evictionRemovesNothingWhenWhatMustStayCannotBeRead() throws {
        let dir = try temporaryFolder()
        let store = try CampaignStore(dataDir: dir + "/data")
        let cache = try ImageCache(folder: dir + "/cache")
        for i in 0..<3 {
            let file = try cache.beginWrite()
            try file.write(Data(repeating: UInt8(i), count: 1 << 20))
            try cache.commit(file, as: String(repeating: String(i), count: 64))
        }
        try store.db.execute("DROP TABLE campaigns")
        #expect(throws: (any Error).self) { try store.evict(cache, toFit: 1 << 20, now: Date()) }
        #expect(cache.usage() == 3 << 20)
    }

    /// The operator view shows a playing clip's first frame for its campaign, the picture's
    /// thumbnail for the others (and for a clip that is refused).
    @Test func aCampaignWithAClipShowsItsFirstFrameInTheOperatorView() throws {
        let dir = try temporaryFolder()
        let store = try CampaignStore(dataDir: dir + "/data")
        let feedURL = URL(string: "https://cdn.example.test/feed.json")!
        let document = try FeedDocument.decode(Data(#"""
        [{"id": "clip", "picUrl": "a.jpg", "videoUrl": "a.mp4", "showTime": 5},
         {"id": "refused", "picUrl": "b.jpg", "videoUrl": "b.mp4", "showTime": 5},
         {"id": "still", "picUrl": "c.jpg", "showTime": 5}]
        """#.utf8), from: feedURL, deviceZone: .gmt)
        try store.apply(document, from: feedURL, etag: nil, lastModified: nil,
                        images: ["clip": .cached(thumbnail: [0xFF, 0xD8, 1]), "refused": .cached(thumbnail: [0xFF, 0xD8, 2]),
                                 "still": .cached(thumbnail: [0xFF, 0xD8, 3])], at: Date())
        let facts = VideoFacts(container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "h264", width: 64, height: 48, fps: 30, duration: 1,
                               framesDecoded: 3)
        let clipKey = ImageCache.key(for: URL(string: "https://cdn.example.test/a.mp4")!)
        try store.updateVideos(["clip": .cached(facts, thumbnail: [0xFF, 0xD8, 9]), "refused": .refused(.unplayable("it lasts 61.0 s"))],
                               keys: ["clip": clipKey, "refused": ImageCache.key(for: URL(string: "https://cdn.example.test/b.mp4")!)])
        let thumbnails = try store.thumbnails(ofCampaigns: ["clip", "refused", "still"])
        #expect(thumbnails == ["clip": [0xFF, 0xD8, 9], "refused": [0xFF, 0xD8, 2], "still": [0xFF, 0xD8, 3]])
    }

    /// A campaign gone from the feed for longer than the retention period is forgotten with
    /// its shows and thumbnail; one gone for less stays, history and all.
    /// A row's rules are held to the ranges a feed's are read in, one table of them
    /// (`Campaign`): a row written past them (by a network process not to be trusted) is
    /// read within them.
    @Test func aStoredCampaignsRulesAreHeldToTheFeedsRanges() throws {
        let store = try CampaignStore(dataDir: try temporaryFolder())
        let feedURL = URL(string: "https://cdn.example.test/feed.json")!
        let document = try FeedDocument.decode(Data(#"[{"id": "a", "picUrl": "a.jpg", "showTime": 5}]"#.utf8), from: feedURL,
                                               deviceZone: .gmt)
        try store.apply(document, from: feedURL, etag: nil, lastModified: nil, images: [:],
                        at: Date(timeIntervalSince1970: 1_800_000_000))
        try store.db.execute("UPDATE campaigns SET max_per_day = 0, min_interval = -5, priority = ?, countdown = 500",
                             [.int(1 << 50)])
        let read = try #require(try store.campaigns(thumbnails: false).first?.campaign)
        #expect(read.maxPerDay == Campaign.maxPerDayRange.lowerBound && read.minInterval == Campaign.minIntervalRange.lowerBound)
        #expect(read.priority == Campaign.priorityRange.upperBound && read.countdown == Campaign.countdownRange.upperBound)
    }

    @Test func campaignsGoneForLongerThanTheRetentionArePruned() throws {
        let dir = try temporaryFolder()
        let store = try CampaignStore(dataDir: dir + "/data")
        let feedURL = URL(string: "https://cdn.example.test/feed.json")!
        func feed(_ ids: [String]) throws -> FeedDocument {
            let entries = ids.map { #"{"id": "\#($0)", "picUrl": "\#($0).jpg", "showTime": 5}"# }
            return try FeedDocument.decode(Data("[\(entries.joined(separator: ","))]".utf8), from: feedURL, deviceZone: .gmt)
        }
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let day: TimeInterval = 86_400
        try store.apply(try feed(["kept", "gone", "back"]), from: feedURL, etag: nil, lastModified: nil,
                        images: ["gone": .cached(thumbnail: [0xFF, 0xD8, 1]), "kept": .cached(thumbnail: [0xFF, 0xD8, 2])], at: t0)
        try store.recordShow(campaignID: "gone", at: t0)
        try store.recordShow(campaignID: "kept", at: t0)
        try store.apply(try feed(["kept"]), from: feedURL, etag: nil, lastModified: nil, images: [:], at: t0 + day)
        try store.apply(try feed(["kept", "back"]), from: feedURL, etag: nil, lastModified: nil, images: [:], at: t0 + 60 * day)
        // 89 days after it left: still there.
        try store.apply(try feed(["kept"]), from: feedURL, etag: nil, lastModified: nil, images: [:], at: t0 + 89 * day)
        #expect(try store.campaigns(includeInactive: true).map(\.campaign.id).sorted() == ["back", "gone", "kept"])
        #expect(try store.showCounts() == ["gone": 1, "kept": 1])

        try store.apply(try feed(["kept"]), from: feedURL, etag: nil, lastModified: nil, images: [:], at: t0 + 92 * day)
        #expect(try store.campaigns(includeInactive: true).map(\.campaign.id).sorted() == ["back", "kept"])
        #expect(try store.showCounts() == ["kept": 1])
        let keys = PictureKeys()
        #expect(try store.thumbnail(forImageKey: keys.of(URL(string: "https://cdn.example.test/gone.jpg")!).key) == nil)
        #expect(try store.thumbnail(forImageKey: keys.of(URL(string: "https://cdn.example.test/kept.jpg")!).key) == [0xFF, 0xD8, 2])
    }

    /// Ids that differ after a NUL character are two campaigns with two show counts
    /// (written in the feed as the JSON escape \u0000, which reaches SQLite as a real NUL).
    @Test func idsThatDifferAfterANulAreTwoCampaigns() throws {
        let dir = try temporaryFolder()
        let store = try CampaignStore(dataDir: dir + "/data")
        let feedURL = URL(string: "https://cdn.example.test/feed.json")!
        let json = #"[{"id": "a\u0000x", "picUrl": "a.jpg", "showTime": 1}, {"id": "a\u0000y", "picUrl": "b.jpg", "showTime": 1}]"#
        let doc = try FeedDocument.decode(Data(json.utf8), from: feedURL, deviceZone: .gmt)
        #expect(doc.campaigns.map(\.id) == ["a\u{0}x", "a\u{0}y"])
        try store.apply(doc, from: feedURL, etag: nil, lastModified: nil, images: [:], at: Date())
        try store.recordShow(campaignID: "a\u{0}x", at: Date())
        #expect(try store.campaigns().map(\.campaign.id).sorted() == ["a\u{0}x", "a\u{0}y"])
        #expect(try store.showCounts() == ["a\u{0}x": 1])
    }

    @Test func aSchema1DatabaseIsMigratedForwardKeepingItsLedgerAndThumbnails() throws {
        let dir = try temporaryFolder()
        // A database as the first release left it: thumbnails in the campaigns table.
        do {
            let v1 = try SQLiteDatabase(path: dir + "/" + CampaignStore.fileName)
            try v1.execute("""
            CREATE TABLE campaigns (id TEXT PRIMARY KEY, pic_url TEXT NOT NULL, show_time INTEGER NOT NULL,
                title TEXT, detail TEXT, start_at REAL, end_at REAL, updated_at REAL,
                position INTEGER NOT NULL DEFAULT 0, active INTEGER NOT NULL DEFAULT 1, image_key TEXT,
                image_problem TEXT, thumbnail BLOB, first_seen REAL NOT NULL, last_seen REAL NOT NULL);
            CREATE TABLE shows (id INTEGER PRIMARY KEY AUTOINCREMENT, campaign_id TEXT NOT NULL, shown_at REAL NOT NULL,
                outcome TEXT CHECK (outcome IN ('skipped', 'completed', 'clicked')));
            CREATE INDEX shows_by_campaign ON shows (campaign_id);
            CREATE TABLE feed_state (feed_url TEXT PRIMARY KEY, etag TEXT, last_modified TEXT, last_success REAL,
                last_attempt REAL, last_error TEXT, message TEXT);
            CREATE TABLE poetry (slot INTEGER PRIMARY KEY CHECK (slot = 1), origin TEXT NOT NULL, author TEXT,
                content TEXT NOT NULL, image_path TEXT, fetched_at REAL NOT NULL);
            INSERT INTO campaigns VALUES ('a', 'https://x.test/a.jpg', 5, NULL, NULL, NULL, NULL, NULL, 0, 1, 'k1', NULL,
                X'FFD8FF', 0, 0);
            INSERT INTO shows (campaign_id, shown_at) VALUES ('a', 0);
            INSERT INTO shows (campaign_id, shown_at, outcome) VALUES ('a', 60, 'clicked');
            PRAGMA user_version = 1;
            """)
        }
        let migrated = try CampaignStore(dataDir: dir)
        #expect(try migrated.db.userVersion == 21)
        // Migrated, it has the very schema a new database has: every table, view and index,
        // every column with its type, default and constraints.
        let fresh = try CampaignStore(dataDir: try temporaryFolder())
        #expect(try Self.schema(of: migrated.db) == Self.schema(of: fresh.db))
        // Schema 5's backfill: shows from before are history — each with a show id, an
        // ending from its outcome (none: interrupted), and reported.
        let history = try migrated.db.rows("SELECT show_id, ended_by, reported FROM shows ORDER BY id")
        #expect(try history.map { try $0["ended_by"].text } == ["interrupted", "click_through"])
        #expect(try history.allSatisfy { row in
            let (reported, id) = (try row["reported"].int, try row["show_id"].text)
            return reported == 1 && id?.count == 32
        })
        #expect(try Set(history.compactMap { try $0["show_id"].text }).count == 2)
        // Schema 6's outbox of pings takes a ping, once.
        try migrated.db.execute("INSERT INTO pings (show_id, kind, url, created_at) VALUES ('s', 'click', 'https://t.test/', 0)")
        #expect(throws: (any Error).self) {
            try migrated.db.execute("INSERT INTO pings (show_id, kind, url, created_at) VALUES ('s', 'click', 'https://t.test/', 1)")
        }
        #expect(try migrated.db.query("SELECT name FROM sqlite_master WHERE name = 'campaigns_active_pictures'").count == 1)
        #expect(try migrated.showCounts() == ["a": 2])
        #expect(try migrated.thumbnail(forImageKey: "k1") == [0xFF, 0xD8, 0xFF])
        #expect(try migrated.campaigns().first?.thumbnail == [0xFF, 0xD8, 0xFF])
    }

    /// A database's schema as SQLite describes it, whatever SQL made it: each table and
    /// view with its columns (name, type, not null, default, key) and each index with its
    /// columns and whether it is unique or partial.
    static func schema(of db: SQLiteDatabase) throws -> [String] {
        var lines: [String] = []
        for object in try db.rows("SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name") {
            let (type, name) = (try object["type"].text ?? "", try object["name"].text ?? "")
            if type == "index" {
                let columns = try db.rows("PRAGMA index_info(\"\(name)\")").compactMap { try $0["name"].text }
                let flags = try db.rows("PRAGMA index_list(\"\(object["tbl_name"].text ?? "")\")")
                    .first { try $0["name"].text == name }.map { "unique \(try $0["unique"].int ?? 0) partial \(try $0["partial"].int ?? 0)" }
                lines.append("index \(name) on \(try object["tbl_name"].text ?? "") \(columns) \(flags ?? "")")
            } else {
                for column in try db.rows("PRAGMA table_info(\"\(name)\")") {
                    lines.append("\(type) \(name).\(try column["name"].text ?? "") \(try column["type"].text ?? "") notnull "
                                 + "\(try column["notnull"].int ?? 0) default \(try column["dflt_value"].text ?? "-") pk \(try column["pk"].int ?? 0)")
                }
            }
        }
        return lines
    }

    @Test func noFeedAndNoDemoFeedSaysWhatToSet() throws {
        let dir = try temporaryFolder()
        let options = KioskOptions(dataDir: dir + "/data", cacheDir: dir + "/cache")
        #expect(throws: DeviceStorageError.noFeed) { _ = try DeviceStorage(options: options, assets: nil) }
        let message = DeviceStorageError.noFeed.localizedDescription
        #expect(message.contains("feed = URL") && message.contains("--feed") && !message.contains("image cache"), "\(message)")
    }

    @Test func aNewerSchemaIsRefusedClearly() throws {
        let dir = try temporaryFolder()
        let store = try CampaignStore(dataDir: dir)
        try store.db.execute("PRAGMA user_version = 99")
        #expect(throws: StoreError.self) { try CampaignStore(dataDir: dir) }
    }

    @Test func showsAreRecordedAndTheirEndNoted() throws {
        let store = try CampaignStore(dataDir: try temporaryFolder())
        let t = Date(timeIntervalSince1970: 1_790_000_000)
        try store.recordShow(campaignID: "a", at: t)
        let first = try store.endShow(campaignID: "a", by: .key, at: t.addingTimeInterval(2.5))
        try store.recordShow(campaignID: "a", at: t.addingTimeInterval(60))
        let second = try store.endShow(campaignID: "a", by: .clickThrough, at: t.addingTimeInterval(61))
        try store.recordShow(campaignID: "a", at: t.addingTimeInterval(120))
        let outcomes = try store.db.query("SELECT outcome, ended_by FROM shows ORDER BY id").map { [$0[0].text, $0[1].text] }
        #expect(outcomes == [["skipped", "key"], ["clicked", "click_through"], [nil, nil]])
        #expect(try store.showCounts() == ["a": 3])
        #expect(first?.endedBy == .by(.key) && first?.seconds == 2.5 && first?.campaignID == "a")
        #expect(second?.seconds == 1 && second?.showID != first?.showID && second?.showID.count == 36)
        #expect(try store.endShow(campaignID: "b", by: .tap, at: t) == nil)
        // Only ended shows wait to be reported; the one still open is marked interrupted at the next start.
        #expect(try store.unreportedShows(limit: 10).map(\.endedBy) == [.by(.key), .by(.clickThrough)])
        #expect(try store.markInterruptedShows() == 1)
        #expect(try store.unreportedShows(limit: 10).last?.endedBy == .interrupted)
        #expect(try store.unreportedShows(limit: 10).last?.seconds == 0)
        try store.markReported([try #require(first?.row)])
        #expect(try store.unreportedCount() == 2)
        // Beyond what the outbox keeps, the oldest are given up; they still count as shows.
        #expect(try store.dropUnreported(keeping: 1) == 1)
        #expect(try store.unreportedShows(limit: 10).map(\.endedBy) == [.interrupted])
        #expect(try store.showCounts() == ["a": 3])
        let states = try store.db.query("SELECT reported FROM ledger ORDER BY id").map { $0[0].int }
        #expect(states == [ReportState.sent.rawValue, ReportState.givenUp.rawValue, ReportState.pending.rawValue])
    }

    /// A word in the ledger no version writes (a newer Splashboard's end, a damaged row) is an
    /// error that names its column and value, not an "interrupted" show sent on as one; such
    /// rows are given up (left in the ledger, never sent), and the others are read.
    @Test func anUnknownStoredEndIsAnErrorNotAnInterruption() throws {
        let store = try CampaignStore(dataDir: try temporaryFolder())
        let t = Date(timeIntervalSince1970: 1_790_000_000)
        for i in 0..<3 {
            try store.recordShow(campaignID: "a", at: t.addingTimeInterval(Double(i * 60)))
            _ = try store.endShow(campaignID: "a", by: .tap, at: t.addingTimeInterval(Double(i * 60 + 1)))
        }
        let rows = try store.db.query("SELECT id FROM ledger ORDER BY id").compactMap { $0[0].int }
        try store.db.execute("UPDATE ledger SET ended_by = 'hologram' WHERE id = ?", [.int(rows[0])])
        #expect {
            try store.unreportedShows(limit: 10)
        } throws: { error in
            "\(error.explained)".contains("ended_by holds \"hologram\", which this Splashboard does not know")
        }
        try store.db.execute("UPDATE ledger SET media = 'smell' WHERE id = ?", [.int(rows[1])])
        #expect(throws: StoreError.self) { try store.unreportedShows(limit: 10) }
        #expect(try store.giveUpUnreadableShows() == 2)
        #expect(try store.unreportedShows(limit: 10).map(\.row) == [rows[2]])
        #expect(try store.giveUpUnreadableShows() == 0)
        #expect(try store.showCounts() == ["a": 3], "given up, they still count as shows")
    }
}

@Suite struct ImageCacheTests {
    @Test func leftoversAreRemovedAndFinalNamesAreOnlyCommitted() throws {
        let dir = try temporaryFolder()
        let cache = try ImageCache(folder: dir)
        let partial = try cache.beginWrite()
        try partial.write(Data([1, 2, 3]))
        #expect(cache.entries().isEmpty)
        let reopened = try ImageCache(folder: dir)
        #expect(reopened.removeLeftovers() == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func leastRecentlyUsedGoesFirstButEligiblePicturesStay() throws {
        let dir = try temporaryFolder()
        let cache = try ImageCache(folder: dir)
        let keys = (0..<4).map { SHA256.hex("k\($0)") }
        for (i, key) in keys.enumerated() {
            let p = try cache.beginWrite()
            try p.write(Data(repeating: 7, count: 1000))
            try cache.commit(p, as: key)
            // Oldest first: k0 used longest ago.
            var times = [timespec(tv_sec: 1_000_000 + i * 100, tv_nsec: 0), timespec(tv_sec: 1_000_000 + i * 100, tv_nsec: 0)]
            utimensat(AT_FDCWD, cache.path(forKey: key), &times, 0)
        }
        #expect(cache.usage() == 4000)
        let removed = cache.evict(toFit: 2000, protecting: [keys[0]])
        #expect(removed == [keys[1], keys[2]])
        #expect(cache.contains(key: keys[0]) && cache.contains(key: keys[3]))
        #expect(cache.clear() == 2)
    }
}

@Suite struct ImageHeaderTests {
    @Test func sizesAreReadFromTheHeader() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.png", width: 300, height: 200, bands: [red])
        try writeImage(dir + "/a.jpg", width: 301, height: 201, bands: [red])
        let png = try ImageHeader.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png"))))
        #expect(png == ImageHeader(kind: .png, width: 300, height: 200))
        let jpgBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/a.jpg")))
        #expect(try ImageHeader.parse(jpgBytes) == ImageHeader(kind: .jpeg, width: 301, height: 201))
        #expect(ImageHeader.isComplete(.jpeg, tail: Array(jpgBytes.suffix(16))))
        #expect(!ImageHeader.isComplete(.jpeg, tail: Array(jpgBytes.dropLast(100).suffix(16))))
    }

    @Test func oversizedHeadersAreRefusedBeforeDecoding() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                            0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60]
        #expect(throws: ImageError.tooLarge(width: 60000, height: 60000)) { try ImageHeader.parse(png) }
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0xEA, 0x60, 0xEA, 0x60, 3]
        #expect(throws: ImageError.tooLarge(width: 60000, height: 60000)) { try ImageHeader.parse(jpeg) }
        // 8000 × 6000 = 48 megapixels: both sides allowed, the area not.
        let wide: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0x17, 0x70, 0x1F, 0x40, 3]
        #expect(throws: ImageError.tooLarge(width: 8000, height: 6000)) { try ImageHeader.parse(wide) }
    }

    @Test(arguments: [("GIF89a", "GIF"), ("BM....", "BMP"), ("<svg xmlns=", "SVG"), ("<!DOCTYPE html>", "HTML"),
                      ("{\"a\":1}", "JSON"), ("hello", "unknown")])
    func otherKindsAreNamed(text: String, expected: String) {
        do {
            _ = try ImageHeader.parse(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.localizedDescription.contains(expected), "\(error.localizedDescription)")
        }
    }
}

/// A database problem says which kind it is, from SQLite's result code.
@Suite struct StoreErrorTests {
    @Test func aFullDiskAndADamagedFileAreToldApart() throws {
        let dir = try temporaryFolder()
        let db = try SQLiteDatabase(path: dir + "/small.db")
        // A database allowed only a few pages fills up as a full disk would.
        try db.execute("PRAGMA max_page_count = 8")
        try db.execute("CREATE TABLE t (x BLOB)")
        // do/catch rather than `let e = #expect(throws:)`, which Swift 6.0's Testing lacks.
        var full: StoreError?
        do {
            for _ in 0..<64 { try db.execute("INSERT INTO t VALUES (?)", [.blob([UInt8](repeating: 1, count: 4096))]) }
        } catch let error as StoreError { full = error }
        #expect(full?.kind == .full, "\(String(describing: full))")
        #expect(full?.localizedDescription.contains("the disk is full") == true)

        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: dir + "/not.db"))
        var damaged: StoreError?
        do {
            let other = try SQLiteDatabase(path: dir + "/not.db")
            _ = try other.query("SELECT * FROM sqlite_master")
        } catch let error as StoreError { damaged = error }
        #expect(damaged?.kind == .corrupt, "\(String(describing: damaged))")
    }

    /// By the names the statement gave them; a name it has not (a typo) is an error that
    /// names it, never a NULL.
    @Test func rowsAreReadByColumnNameAndAMissingColumnIsAnError() throws {
        let dir = try temporaryFolder()
        let db = try SQLiteDatabase(path: dir + "/r.db")
        let row = try #require(try db.rows("SELECT 7 AS seven, 'x' AS letter, NULL AS empty").first)
        #expect(try row["letter"] == .text("x"))
        #expect(try row["seven"] == .int(7))
        #expect(try row["empty"] == .null)
        #expect {
            _ = try row["lettre"]
        } throws: { error in
            (error as? StoreError)?.message.contains("no column lettre in SELECT 7 AS seven") == true
        }
    }
}
