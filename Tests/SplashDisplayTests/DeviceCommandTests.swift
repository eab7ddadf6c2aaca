import Foundation
import Glibc
import SplashCore
import SplashServices
import SplashStorage
import SplashTestSupport
import Testing

/// The kiosk and the `sync`, `campaigns` and `cache clear` commands on one device folder.
@Suite struct DeviceCommandTests {
    final class Device {
        let folder: String
        let www: String
        let server: TestServer
        var args: [String] { ["--data-dir", folder + "/data", "--cache-dir", folder + "/cache"] }

        init() throws {
            folder = try temporaryFolder()
            www = folder + "/www"
            try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
            server = try TestServer(root: www)
        }

        func publish(_ feed: String) throws {
            try feed.write(toFile: www + "/feed.json", atomically: true, encoding: .utf8)
        }

        var feed: String { server.url("/files/feed.json").absoluteString }

        func run(_ extra: [String]) throws -> KioskRun { try runKiosk(extra + args) }

        func campaigns() throws -> [[String: Any]] {
            let r = try run(["campaigns", "--json", "--feed", feed])
            return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]) ?? []
        }

        var cacheFiles: [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/cache")) ?? []).sorted()
        }
    }

    /// What a failed sync says is what happened: a name that does not resolve, a port that
    /// refuses, a real server's status — through the address guard (which answers its own
    /// 502 when it cannot connect) as without it.
    @Test func networkFailuresAreNamedForWhatHappened() throws {
        let d = try Device()
        let closed = unusedPort()
        for rule in ["no", "yes"] {
            let refused = try d.run(["sync", "--feed", "http://127.0.0.1:\(closed)/feed.json", "--allow-private-addresses", rule])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("connection to 127.0.0.1:\(closed) refused (is the server running on that port?)"),
                    "\(rule): \(refused.stderr)")
            #expect(!refused.stderr.contains("502"), "\(refused.stderr)")
            let status = try d.run(["sync", "--feed", d.server.url("/status/502").absoluteString, "--allow-private-addresses", rule])
            #expect(status.stderr.contains("the server answered 502 Bad Gateway"), "\(rule): \(status.stderr)")
        }
        // https:// for a server that speaks plain http is not a certificate problem.
        let plain = try d.run(["sync", "--feed", "https://127.0.0.1:\(d.server.port)/files/feed.json"])
        #expect(plain.stderr.contains("the server at 127.0.0.1:\(d.server.port) does not speak TLS (is the URL meant to be http://?)"),
                "\(plain.stderr)")
        let unresolved = try d.run(["sync", "--feed", "https://no-such-host.invalid/feed.json"])
        #expect(unresolved.status == 1)
        #expect(unresolved.stderr.contains("could not resolve no-such-host.invalid"), "\(unresolved.stderr)")
        #expect(!unresolved.stderr.contains("502"), "\(unresolved.stderr)")
        // The last good feed is spoken of only where there is one.
        #expect(!unresolved.stderr.contains("last good feed"), "\(unresolved.stderr)")
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        try d.publish(#"[{"id": "a", "picUrl": "a.png", "showTime": 2}]"#)
        #expect(try d.run(["sync", "--feed", d.feed]).status == 0)
        try d.publish(#"[{"id": "a", "picUrl": "a.png""#)
        let broken = try d.run(["sync", "--feed", d.feed])
        #expect(broken.status == 1 && broken.stderr.contains("the campaigns of the last good feed stay in force"), "\(broken.stderr)")
    }

    /// "Last sync" is when the catalog was last confirmed with the feed: a 304 moves it and
    /// writes nothing into the database; "last change" stays with the feed's content. The
    /// feed's warnings stand after the 304 too.
    @Test func aNotModifiedSyncIsFreshAndKeepsTheFeedsWarnings() throws {
        let d = try Device()
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        try d.publish(#"[{"id": "a", "picUrl": "a.png", "showTime": 2, "linkURL": "https://x.test/"}, {"id": "b", "picUrl": "a.png"}]"#)
        let first = try d.run(["sync", "--feed", d.feed])
        #expect(first.status == 0 && first.stdout.contains("applied; 1 campaign, 1 eligible"), "\(first.stdout)")
        // An hour ago, as far as the device knows.
        let hourAgo = Date().addingTimeInterval(-3600)
        let db = try SQLiteDatabase(path: d.folder + "/data/splashboard.db")
        try db.execute("UPDATE feed_state SET last_success = ?, last_change = ?", [.date(hourAgo), .date(hourAgo)])
        #expect(!FileManager.default.fileExists(atPath: d.folder + "/data/feed-confirmed"))
        let before = try db.rows("SELECT * FROM feed_state").map { "\($0.values)" }
        let changes = try db.rows("PRAGMA data_version")
        let second = try d.run(["sync", "--feed", d.feed])
        #expect(second.stdout.contains("not modified; 1 campaign, 1 eligible"), "\(second.stdout)")
        #expect(second.stdout.contains("current feed: 2 warnings (unchanged since it was read):"), "\(second.stdout)")
        #expect(second.stderr.contains("warning: [0].linkURL: unknown field; did you mean linkUrl?"), "\(second.stderr)")
        #expect(try db.rows("SELECT * FROM feed_state").map { "\($0.values)" } == before)
        #expect(try db.rows("PRAGMA data_version").map { "\($0.values)" } == changes.map { "\($0.values)" })
        let rows = try d.campaigns()
        func date(_ key: String, _ row: [String: Any]?) -> Date? { (row?[key] as? String).flatMap { ISO8601.date(from: $0) } }
        let lastSync = try #require(date("feedLastSync", rows.first))
        let lastChange = try #require(date("feedLastChange", rows.first))
        #expect(abs(lastSync.timeIntervalSinceNow) < 60, "\(rows)")
        #expect(abs(lastChange.timeIntervalSince(hourAgo)) < 1, "\(rows)")
        let table = try d.run(["campaigns", "--feed", d.feed])
        #expect(table.stdout.contains("feed warnings (2):"), "\(table.stdout)")
        // Without --feed it is the feed the campaigns came from, by name.
        let bare = try d.run(["campaigns"])
        #expect(bare.stdout.contains("feed \(d.feed): last sync "), "\(bare.stdout)")
        #expect(table.stdout.contains("  [0].linkURL: unknown field; did you mean linkUrl?"))
        #expect(table.stdout.contains("  [1].showTime: is missing; campaign \"b\" skipped"))
        // The same content read in full again (no validators) is no change either.
        try db.execute("UPDATE feed_state SET etag = NULL, last_modified = NULL")
        _ = try d.run(["sync", "--feed", d.feed])
        let again = try #require(date("feedLastChange", try d.campaigns().first))
        #expect(abs(again.timeIntervalSince(hourAgo)) < 1)
    }

    /// A data folder the kiosk's user cannot write (the service's, after a `sync` as root):
    /// the kiosk still shows the default picture and says in one line whose the folder is,
    /// who it runs as and the fix; `sync` fails saying the same; no SQL anywhere.
    @Test func aFolderTheKioskCannotWriteIsNamedWithItsOwnerAndTheFix() throws {
        let d = try Device()
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        try d.publish(#"[{"id": "a", "picUrl": "a.png", "showTime": 5}]"#)
        #expect(try d.run(["sync", "--feed", d.feed]).status == 0)
        // Root made it; the kiosk runs as someone else (or, not as root, the folder is locked).
        let asOther: [String]
        if getuid() == 0 {
            asOther = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
            #expect(chmod(d.folder, 0o755) == 0)
        } else {
            asOther = []
            #expect(chmod(d.folder + "/data", 0o555) == 0)
        }
        defer { chmod(d.folder + "/data", 0o755) }
        let kiosk = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--feed", d.feed] + d.args,
                                 wrapper: asOther)
        #expect(kiosk.status == 0, "\(kiosk.stderr)")
        let errors = kiosk.events(named: "error").compactMap { $0["message"] as? String }
        let who = getuid() == 0 ? "nobody (uid 65534)" : "\(FolderAccess.user(getuid())) (uid \(getuid()))"
        let owner = FolderAccess.user(getuid()) + ":" + String(cString: getgrgid(getgid())!.pointee.gr_name)
        let mode = getuid() == 0 ? "0755" : "0555"
        let name = String(who.split(separator: " ")[0])
        let expected: String = "the data folder \(d.folder)/data belongs to \(owner), mode \(mode); \(who) cannot write it: "
            + "sudo chown -R \(name): \(d.folder)/data; shows are not counted until that is done and the "
            + "kiosk restarted"
        #expect(errors.first == expected, "\(errors)")
        #expect(kiosk.events(named: "splash").first?["campaign"] is NSNull)
        #expect(!(kiosk.stdout + kiosk.stderr).contains("INSERT") && !(kiosk.stdout + kiosk.stderr).contains("SELECT"))
        let sync = try runKiosk(["sync", "--feed", d.feed] + d.args, wrapper: asOther)
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("cannot write it: sudo chown -R \(who.split(separator: " ")[0]): \(d.folder)/data"), "\(sync.stderr)")
    }

    /// `allow-private-addresses = no`: the feed is fetched (the operator named it), but no
    /// picture that leads inside the network is, whatever its name; each says why. Left to
    /// its default, a feed on this machine may name pictures on it.
    @Test func picturesInsideTheNetworkAreRefusedWhenTheOperatorSaysSo() throws {
        let d = try Device()
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        let named = "http://localhost:\(d.server.port)/files/a.png"
        try d.publish(#"[{"id": "same-host", "picUrl": "a.png", "showTime": 2}, {"id": "named", "picUrl": "\#(named)", "showTime": 2}]"#)
        let refused = try d.run(["sync", "--feed", d.feed, "--allow-private-addresses", "no"])
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.stderr.contains("http://127.0.0.1:\(d.server.port)/files/a.png leads to 127.0.0.1, a loopback address"),
                "\(refused.stderr)")
        // localhost is 127.0.0.1 or ::1, as the resolver lists it.
        #expect(["127.0.0.1", "::1"].contains { refused.stderr.contains("\(named) leads to \($0), a loopback address") },
                "\(refused.stderr)")
        #expect(try d.server.requestCounts()["/files/a.png"] == nil)
        #expect(d.cacheFiles.isEmpty)

        let allowed = try d.run(["sync", "--feed", d.feed])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(!allowed.stderr.contains("refused"), "\(allowed.stderr)")
        #expect(try d.campaigns().map { $0["eligible"] as? Bool } == [true, true])
    }

    /// Record, then show: when the ledger refuses the write (here a trigger makes SQLite
    /// fail every INSERT into the ledger, as a full disk would), the campaign is not
    /// presented; the default picture is, with an error event. Once the database takes
    /// writes again, counting resumes from what was really recorded.
    @Test func aShowTheLedgerRefusesIsNotPresented() throws {
        let d = try Device()
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        try d.publish(#"[{"id": "a", "picUrl": "a.png", "showTime": 2, "title": "两次"}]"#)
        #expect(try d.run(["sync", "--feed", d.feed]).status == 0)
        let db = try SQLiteDatabase(path: d.folder + "/data/splashboard.db")
        try db.execute("CREATE TRIGGER refuse BEFORE INSERT ON ledger BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END")

        let refused = try d.run(["--headless", "--clock", "virtual", "--exit-after", "splash", "--feed", d.feed])
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(refused.events(named: "splash").map { $0["campaign"] is NSNull } == [true])
        let error = refused.events(named: "error").compactMap { $0["message"] as? String }
        #expect(error.contains { $0.contains("cannot record a show of a") && $0.contains("disk is full") }, "\(error)")
        #expect(try db.query("SELECT count(*) FROM shows") == [[.int(0)]])

        try db.execute("DROP TRIGGER refuse")
        var shown: [String] = []
        for _ in 0..<3 {
            let r = try d.run(["--headless", "--clock", "virtual", "--exit-after", "splash", "--feed", d.feed])
            shown.append(r.events(named: "splash").first?["campaign"] as? String ?? "fallback")
        }
        #expect(shown == ["a", "a", "fallback"])
        #expect(try db.query("SELECT count(*) FROM shows") == [[.int(2)]])
    }

    /// The cache cap, end to end through `sync --cache-max-mb`: pictures of eligible
    /// campaigns and the kept poem's picture are never evicted, whatever the cap; a retired
    /// campaign's picture goes first, and a new one comes once there is room.
    @Test func theCacheCapNeverEvictsWhatMustStay() throws {
        let d = try Device()
        for (i, name) in ["a.png", "b.png", "c.png", "poem.png"].enumerated() {
            try writeNoisePNG(d.www + "/" + name, width: 1600, height: 1200, seed: UInt64(i + 1))  // about 5.8 MB each
        }
        try #"{"content": "床前明月光", "origin": "静夜思", "author": "李白"}"#.write(toFile: d.www + "/poem.json",
                                                                                   atomically: true, encoding: .utf8)
        func campaigns(_ ids: [String]) -> String {
            "[" + ids.map { #"{"id": "\#($0)", "picUrl": "\#($0).png", "showTime": 5}"# }.joined(separator: ",") + "]"
        }
        let cap = ["--cache-max-mb", "16"]
        func key(_ name: String) -> String { ImageCache.key(for: d.server.url("/files/" + name)) }

        try d.publish(campaigns(["a", "b"]))
        #expect(try d.run(["sync", "--feed", d.feed] + cap).status == 0)
        // The poem's picture comes through a kiosk run and is kept with the last good poem.
        let kiosk = try d.run(["--headless", "--clock", "virtual", "--exit-after", "detail", "--feed", d.feed,
                               "--poetry-url", d.server.url("/files/poem.json").absoluteString,
                               "--poetry-image-url", d.server.url("/files/poem.png").absoluteString] + cap)
        #expect(kiosk.status == 0, "\(kiosk.stderr)")
        let db = try SQLiteDatabase(path: d.folder + "/data/splashboard.db")
        let poemPath = try #require(try db.query("SELECT image_path FROM poetry").first?.first?.text)
        let poem = URL(fileURLWithPath: poemPath).lastPathComponent
        #expect(d.cacheFiles.contains(poem))

        // Already over the 16 MB cap with what must stay: none of it goes, and a new
        // picture is not fetched (the cap holds during the sync).
        try d.publish(campaigns(["a", "b", "c"]))
        let over = try d.run(["sync", "--feed", d.feed] + cap)
        #expect(over.status == 0, "\(over.stderr)")
        #expect(Set(d.cacheFiles).isSuperset(of: [key("a.png"), key("b.png"), poem]))
        #expect(!d.cacheFiles.contains(key("c.png")))

        // a and b retired: their pictures go, the eligible one comes, the poem's stays.
        try d.publish(campaigns(["c"]))
        #expect(try d.run(["sync", "--feed", d.feed] + cap).status == 0)
        #expect(try d.run(["sync", "--feed", d.feed] + cap).status == 0)
        let left = Set(d.cacheFiles)
        #expect(left.contains(key("c.png")) && left.contains(poem), "\(left)")
        #expect(!left.contains(key("a.png")) && !left.contains(key("b.png")), "\(left)")
    }

    /// A token in the feed's URL stays off the public screen: the error the operator view
    /// shows names the feed by scheme, host and path only.
    @Test func theFeedsTokenIsNotKeptInTheErrorTheScreenShows() throws {
        let d = try Device()
        let feed = d.server.url("/files/missing.json").absoluteString + "?token=s3cret"
        let sync = try d.run(["sync", "--feed", feed])
        #expect(sync.status == 1)
        let db = try SQLiteDatabase(path: d.folder + "/data/splashboard.db")
        let error = try #require(try db.query("SELECT last_error FROM feed_state").first?.first?.text)
        #expect(error.contains("/files/missing.json") && !error.contains("s3cret"), "\(error)")
        #expect(URL(string: "https://user:pw@cdn.example.test:8443/k/feed.json?key=x#f")!.publicAddress
                == "https://cdn.example.test:8443/k/feed.json")
    }

    /// The cap holds during a sync, not only after it: pictures that do not fit are not
    /// fetched (a warning says the cache is full) and come once room is made.
    @Test func theCacheCapHoldsWhileASyncDownloads() throws {
        let d = try Device()
        for (i, name) in ["a", "b", "c", "d"].enumerated() {
            try writeNoisePNG(d.www + "/\(name).png", width: 1600, height: 1200, seed: UInt64(10 + i))  // about 5.8 MB
        }
        func campaigns(_ ids: [String]) -> String {
            "[" + ids.map { #"{"id": "\#($0)", "picUrl": "\#($0).png", "showTime": 5}"# }.joined(separator: ",") + "]"
        }
        let cap = ["--cache-max-mb", "16"]
        func used() -> Int {
            d.cacheFiles.filter { $0.count == 64 }.reduce(0) { total, name in
                total + ((try? FileManager.default.attributesOfItem(atPath: d.folder + "/cache/" + name)[.size] as? Int) ?? 0)
            }
        }
        func cached(_ name: String) -> Bool { d.cacheFiles.contains(ImageCache.key(for: d.server.url("/files/\(name).png"))) }

        try d.publish(campaigns(["a", "b", "c", "d"]))
        let first = try d.run(["sync", "--feed", d.feed] + cap)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(used() <= 16 << 20, "\(used()) bytes")
        #expect(cached("a") && cached("b") && !cached("c") && !cached("d"))
        #expect(first.stderr.contains("image cache is full"), "\(first.stderr)")
        // The campaigns say why, as the operator view's cards do.
        let reasons = try d.campaigns().map { $0["reason"] as? String }
        #expect(reasons == [nil, nil, "image missing: cache full", "image missing: cache full"], "\(reasons)")

        // a and b retired: the next syncs make room and fetch c and d, within the cap.
        try d.publish(campaigns(["c", "d"]))
        _ = try d.run(["sync", "--feed", d.feed] + cap)
        _ = try d.run(["sync", "--feed", d.feed] + cap)
        #expect(cached("c") && cached("d") && !cached("a") && !cached("b"), "\(d.cacheFiles)")
        #expect(used() <= 16 << 20, "\(used()) bytes")
    }

    @Test func showCountsHoldAcrossRestartsThenTheFallbackShows() throws {
        let d = try Device()
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        try d.publish(#"[{"id": "a", "picUrl": "a.png", "showTime": 3, "title": "三次"}]"#)
        let sync = try d.run(["sync", "--feed", d.feed])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("1 campaign, 1 eligible"))

        var shown: [String] = []
        var remaining: [Int] = []
        for _ in 0..<4 {
            let r = try d.run(["--headless", "--clock", "virtual", "--exit-after", "splash", "--feed", d.feed])
            #expect(r.status == 0, "\(r.stderr)")
            let splash = try #require(r.events(named: "splash").first)
            shown.append(splash["campaign"] as? String ?? "fallback")
            if let n = splash["remaining"] as? Int { remaining.append(n) }
        }
        #expect(shown == ["a", "a", "a", "fallback"])
        #expect(remaining == [2, 1, 0])

        let list = try d.campaigns()
        #expect(list.count == 1)
        #expect(list.first?["shows"] as? Int == 3)
        #expect(list.first?["remaining"] as? Int == 0)
        #expect(list.first?["eligible"] as? Bool == false)
        #expect(list.first?["reason"] as? String == "used up")

        // Raising showTime gives more shows.
        try d.publish(#"[{"id": "a", "picUrl": "a.png", "showTime": 4, "title": "四次"}]"#)
        #expect(try d.run(["sync", "--feed", d.feed]).status == 0)
        let again = try d.run(["--headless", "--clock", "virtual", "--exit-after", "splash", "--feed", d.feed])
        #expect(again.events(named: "splash").first?["campaign"] as? String == "a")
        #expect(again.events(named: "splash").first?["remaining"] as? Int == 0)
    }

    /// Whatever an operator types as the feed or a picture's file URL — a folder, a FIFO, a
    /// device, a file they cannot read — is a one-line error naming the path and what it is:
    /// no crash, no wait on the FIFO.
    @Test func aLocalFeedOrPictureThatIsNoFileIsNamedNotACrash() throws {
        let d = try Device()
        let fifo = d.folder + "/pipe.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        let locked = d.folder + "/locked.json"
        try "[]".write(toFile: locked, atomically: true, encoding: .utf8)
        chmod(locked, 0)
        var cases: [(String, String)] = [
            (d.www, "\(d.www) is a folder, not a file"),
            ("file://" + d.www, "\(d.www) is a folder, not a file"),
            (fifo, "\(fifo) is a FIFO (named pipe), not a file"),
            ("/dev/null", "/dev/null is a device, not a file"),
        ]
        // Root reads any file: the permission case is the operator's only as another user.
        if geteuid() != 0 { cases.append((locked, "cannot read \(locked): permission denied")) }
        for (feed, said) in cases {
            for command in [["sync", "--feed", feed], ["feed", "check", feed]] {
                let r = try d.run(command)
                #expect(r.status == 1 || r.status == 2, "\(command): exit \(r.status): \(r.stderr)")
                // `sync` says it on stderr, `feed check` in its report.
                #expect((r.stdout + r.stderr).contains(said), "\(command): \(r.stdout)\(r.stderr)")
                #expect(!r.stderr.contains("Fatal error"), "\(command): \(r.stderr)")
            }
        }
        // A picture's file URL that is a folder: that campaign waits, the sync goes on.
        try writeImage(d.www + "/a.png", width: 64, height: 36, bands: [red])
        let local = d.www + "/local.json"
        try """
        {"campaigns": [{"id": "a", "picUrl": "a.png", "showTime": 5},
                       {"id": "dir", "picUrl": "file://\(d.folder)", "showTime": 5}]}
        """.write(toFile: local, atomically: true, encoding: .utf8)
        let sync = try d.run(["sync", "--feed", local])
        #expect(sync.status == 0 || sync.status == 1, "\(sync.stderr)")
        #expect(sync.stderr.contains("\(d.folder) is a folder, not a file"), "\(sync.stderr)")
        #expect(!sync.stderr.contains("Fatal error"), "\(sync.stderr)")
        let listed = try d.run(["campaigns", "--json", "--feed", local])
        let rows = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(rows.first { $0["id"] as? String == "a" }?["cached"] as? Bool == true, "\(listed.stdout)")
    }

    @Test func syncReportsFailuresWithTheReasonAndExit1() throws {
        let d = try Device()
        let r = try d.run(["sync", "--feed", d.server.url("/status/500").absoluteString])
        #expect(r.status == 1)
        #expect(r.stderr.contains("500"))
        let bad = try d.run(["sync", "--feed", d.server.url("/files/nothing.json").absoluteString])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("404"))
    }

    @Test func theCampaignTableAndCacheClear() throws {
        let d = try Device()
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        try writeImage(d.www + "/b.jpg", width: 320, height: 180, bands: [blue])
        try d.publish("""
        {"campaigns": [
          {"id": "a", "picUrl": "a.png", "showTime": 5, "title": "春茶", "updatedAt": "2026-01-01T00:00:00+08:00"},
          {"id": "b", "picUrl": "b.jpg", "showTime": 2, "title": "Books", "updatedAt": "2026-02-01T00:00:00Z"},
          {"id": "later", "picUrl": "a.png", "showTime": 2, "startAt": "2099-01-01T00:00:00Z"}]}
        """)
        #expect(try d.run(["sync", "--feed", d.feed]).status == 0)
        let table = try d.run(["campaigns", "--feed", d.feed])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("id") == true)
        #expect(lines.contains { $0.hasPrefix("b ") && $0.contains("2/2") && $0.hasSuffix("*") })
        #expect(lines.contains { $0.hasPrefix("later") && $0.contains("not started") })

        let list = try d.campaigns()
        #expect(list.map { $0["id"] as? String } == ["a", "b", "later"])
        // Each row says whose counts these are: the device's id, given or derived.
        let named = try d.run(["campaigns", "--json", "--feed", d.feed, "--device-id", "lobby-3"])
        let rows = (try JSONSerialization.jsonObject(with: Data(named.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(rows.count == 3 && rows.allSatisfy { $0["device"] as? String == "lobby-3" })
        if let machine = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) {
            #expect(list.allSatisfy { $0["device"] as? String == DeviceIdentity.applicationSpecific(machineID: machine) })
        }
        #expect(list.map { $0["newest"] as? Bool } == [false, true, false])
        #expect(list.allSatisfy { $0["cached"] as? Bool == true })
        #expect(d.cacheFiles.count == 2)

        _ = try d.run(["--headless", "--clock", "virtual", "--exit-after", "splash", "--feed", d.feed])
        let cleared = try d.run(["cache", "clear", "--feed", d.feed])
        #expect(cleared.status == 0)
        #expect(cleared.stdout.contains("removed 2 files"))
        #expect(d.cacheFiles.isEmpty)
        let after = try d.campaigns()
        #expect(after.allSatisfy { $0["cached"] as? Bool == false })
        #expect(after.first { $0["id"] as? String == "b" }?["shows"] as? Int == 1)
        // Without pictures nothing is eligible: the fallback shows until the next sync.
        let r = try d.run(["--headless", "--clock", "virtual", "--exit-after", "first-frame", "--feed", d.feed])
        #expect(r.events(named: "splash").first?["campaign"] is NSNull)
    }

    @Test func theFirstFrameNeverWaitsForTheNetwork() throws {
        let d = try Device()
        // The feed server never answers; the splash (the fallback) still comes up.
        let r = try d.run(["--headless", "--clock", "virtual", "--exit-after", "first-frame",
                           "--feed", d.server.url("/hang").absoluteString])
        #expect(r.status == 0)
        #expect(r.names.contains("first_frame"))
        #expect(r.events(named: "splash").first?["campaign"] is NSNull)
        // The sync starts only once the first frame is up; this run ended there.
        #expect(try d.server.requestCounts()["/hang"] == nil)
    }

    /// `sync`'s count of eligible campaigns is the kiosk's: the device's zone and the
    /// clock's trust, not UTC. A campaign whose one-hour window holds now in Shanghai (and
    /// not in UTC) is eligible on a device set to Shanghai.
    @Test func theSyncSummaryJudgesEligibleInTheDevicesZone() throws {
        let d = try Device()
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        var shanghai = Calendar(identifier: .gregorian)
        shanghai.timeZone = TimeZone(identifier: "Asia/Shanghai")!
        // From the hour before to the hour after next: an hour turning during the test keeps it open.
        let hour = shanghai.component(.hour, from: Date())
        let window = String(format: "%02d:00-%02d:00", (hour + 23) % 24, (hour + 2) % 24)
        try d.publish(#"[{"id": "a", "picUrl": "a.png", "showTime": 5, "hours": ["\#(window)"]}]"#)
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Asia/Shanghai"
        let sync = try runKiosk(["sync", "--feed", d.feed] + d.args, environment: environment)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("1 campaign, 1 eligible"), "\(sync.stdout) (window \(window))")
    }

    @Test func theFontIsRememberedAndCheckedAtTheNextStart() throws {
        let d = try Device()
        let memo = d.folder + "/data/font"
        let first = try d.run(["--headless", "--exit-after", "first-frame", "--feed", d.feed])
        #expect(first.status == 0, "\(first.stderr)")
        let remembered = try String(contentsOfFile: memo, encoding: .utf8).split(separator: "\n")
        // The face, and its family's bold face ("-" when the system has none of its own).
        #expect(remembered.count == 4)
        #expect(FileManager.default.fileExists(atPath: String(remembered.first ?? "")))

        // A remembered file that is no longer a usable font: looked up again, and replaced.
        let junk = d.folder + "/junk.ttf"
        try "not a font".write(toFile: junk, atomically: true, encoding: .utf8)
        try "\(junk)\n0\n-\n-\n".write(toFile: memo, atomically: true, encoding: .utf8)
        let second = try d.run(["--headless", "--exit-after", "first-frame", "--feed", d.feed])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try String(contentsOfFile: memo, encoding: .utf8).split(separator: "\n") == remembered)
        // It is this user's alone (0600); one that another user put in its place is not read.
        #expect((try FileManager.default.attributesOfItem(atPath: memo)[.posixPermissions] as? Int) == 0o600)
        if getuid() == 0 {
            try "\(junk)\n0\n-\n-\n".write(toFile: memo, atomically: true, encoding: .utf8)
            #expect(chown(memo, 65534, 65534) == 0)
            let third = try d.run(["--headless", "--exit-after", "first-frame", "--feed", d.feed])
            #expect(third.status == 0, "\(third.stderr)")
            #expect(try String(contentsOfFile: memo, encoding: .utf8).split(separator: "\n") == remembered)
        }

        // `cache clear` forgets it with the pictures, and the first picture kept for the next start.
        let firstPicture = d.folder + "/data/first-picture"
        #expect(FileManager.default.fileExists(atPath: firstPicture))
        _ = try d.run(["cache", "clear", "--feed", d.feed])
        #expect(!FileManager.default.fileExists(atPath: memo))
        #expect(!FileManager.default.fileExists(atPath: firstPicture))
    }

    @Test func theKioskSyncsInTheBackgroundAndReportsIt() throws {
        let d = try Device()
        try writeImage(d.www + "/a.png", width: 320, height: 180, bands: [red])
        try d.publish(#"[{"id": "a", "picUrl": "a.png", "showTime": 9}]"#)
        // Real clock, short run: the sync lands while the splash counts down.
        let r = try d.run(["--headless", "--exit-after", "2.5", "--feed", d.feed, "--countdown", "1", "--attract-after", "1"])
        #expect(r.status == 0)
        let sync = try #require(r.events(named: "sync").first)
        #expect(sync["status"] as? String == "ok")
        #expect(sync["campaigns"] as? Int == 1)
        // The first splash had nothing cached; after the sync the attract loop shows the campaign.
        #expect(r.events(named: "splash").first?["campaign"] is NSNull)
        #expect(r.events(named: "splash").contains { $0["campaign"] as? String == "a" })
    }

    @Test func theCommandsRefuseBadArguments() throws {
        let d = try Device()
        #expect(try d.run(["campaign"]).status == 2)
        #expect(try d.run(["cache"]).status == 2)
        #expect(try d.run(["sync", "--json"]).status == 2)
    }
}
