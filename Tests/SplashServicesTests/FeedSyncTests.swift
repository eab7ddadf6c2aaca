import Foundation
import SplashCore
import SplashServices
import SplashNetwork
import SplashTestSupport
import Testing
import Glibc

@Suite struct FeedSyncTests {
    let green = RGBColor(red: 20, green: 200, blue: 60)

    /// A socket on 127.0.0.1 that takes connections into its queue and never reads them:
    /// a picture host that says nothing.
    static func silentHost() -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 8) == 0
                && getsockname(fd, $0, &length) == 0 }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    @Test func twentySilentPictureHostsCannotHoldASyncPastItsTime() throws {
        let f = try SyncFixture()
        try f.publishImage("good.jpg", green)
        let hosts = (0..<20).map { _ in Self.silentHost() }
        defer { hosts.forEach { close($0.fd) } }
        let entries = hosts.enumerated().map { #"{"id": "s\#($0.offset)", "picUrl": "http://127.0.0.1:\#($0.element.port)/p.jpg", "showTime": 5}"# }
        try f.publish("feed.json", "[" + (entries + [#"{"id": "good", "picUrl": "good.jpg", "showTime": 5}"#]).joined(separator: ",") + "]")
        let sync = f.feedSync()
        sync.options.pictureSeconds = 2
        let report = sync.sync(f.feedURL(), now: f.now)
        // The feed is applied; the pictures not started in the sync's time wait for the next one.
        #expect(report.status == .ok && report.campaigns == 21, "\(report)")
        let late = try #require(report.warnings.first { $0.contains("pictures not fetched: the sync's 2 s for pictures ran out") },
                                "\(report.warnings)")
        let count = Int(late.prefix { $0 != " " }) ?? 0
        // Four at a time, each given up after 1 s without a byte: about twelve were tried in 2 s.
        #expect(count >= 4 && count <= 16, "\(late)")
        let waiting = try f.store.campaigns(thumbnails: false).filter { $0.imageWaiting?.contains("the next sync fetches it") == true }
        #expect(waiting.count == count)
        // The good picture comes last in the feed. At later syncs the hosts that did not answer
        // go after the others: the silent ones do not take every sync's time, and it comes.
        for round in 0..<3 where try f.eligibleIDs().isEmpty {
            try f.publish("feed.json", "[" + (entries + [#"{"id": "good", "picUrl": "good.jpg", "showTime": 5, "title": "\#(round)"}"#])
                .joined(separator: ",") + "]")
            #expect(sync.sync(f.feedURL(), now: f.now).status == .ok)
        }
        #expect(try f.eligibleIDs() == ["good"])
    }

    /// Downloads side by side share the cache's room: one that did not fit in the share it
    /// got is tried again with all the room there is, and is not called "cache full".
    @Test func picturesFetchedSideBySideFitWhatTheCacheHolds() throws {
        let f = try SyncFixture()
        for name in ["a", "b"] { try writeNoisePNG(f.www + "/\(name).png", width: 2400, height: 1800, seed: name == "a" ? 3 : 4) }
        let size = try FileManager.default.attributesOfItem(atPath: f.www + "/a.png")[.size] as? Int ?? 0
        #expect(size > 10 << 20 && size < 15 << 20, "\(size) bytes")
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 5}, {"id": "b", "picUrl": "b.png", "showTime": 5}]"#)
        let report = f.sync(f.feedURL(), cacheMaxBytes: 30 << 20)
        #expect(report.status == .ok && report.pictureErrors.isEmpty, "\(report.pictureErrors)")
        #expect(try f.eligibleIDs() == ["a", "b"])
    }

    @Test func everyFeedShapeSyncsOverHTTP() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publishImage("b.jpg", blue)
        let shapes = [
            "seed.json": #"{"picUrl": "a.png", "showTime": 3}"#,
            "list.json": #"[{"id": "a", "picUrl": "a.png", "showTime": 3}, {"id": "b", "picUrl": "b.jpg", "showTime": 2}]"#,
            "object.json": #"{"message": "hi", "campaigns": [{"id": "b", "picUrl": "/files/b.jpg", "showTime": 1}]}"#,
        ]
        for (name, json) in shapes { try f.publish(name, json) }

        let seed = f.sync(f.feedURL("seed.json"))
        #expect(seed.status == .ok, "\(seed)")
        #expect(try f.eligibleIDs() == [Campaign.ID(f.server.url("/files/a.png").absoluteString)])

        let list = f.sync(f.feedURL("list.json"))
        #expect(list.status == .ok && list.campaigns == 2)
        #expect(try f.eligibleIDs() == ["a", "b"])
        let stored = try f.store.campaigns()
        for s in stored {
            let thumb = try #require(s.thumbnail)
            #expect(thumb.starts(with: [0xFF, 0xD8, 0xFF]))
            let header = try ImageHeader.parse(thumb)
            #expect(max(header.width, header.height) == 320)
        }

        let object = f.sync(f.feedURL("object.json"))
        #expect(object.status == .ok)
        #expect(try f.eligibleIDs() == ["b"])
        #expect(try f.store.feedState(for: f.feedURL("object.json")).message == "hi")
        #expect(f.cacheIsClean())
    }

    @Test func aNotModifiedAnswerWritesNothing() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 3}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        let before = try f.databaseFingerprint()
        let again = f.sync(f.feedURL())
        #expect(again.status == .notModified)
        #expect(again.campaigns == 1)
        #expect(try f.databaseFingerprint() == before)
        // The picture was fetched once; the feed twice.
        #expect(try f.server.requestCounts()["/files/a.png"] == 1)
        #expect(try f.server.requestCounts()["/files/feed.json"] == 2)
    }

    @Test func showTimeChangesAndRemovedCampaigns() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publishImage("b.png", blue)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 5}, {"id": "b", "picUrl": "b.png", "showTime": 5}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        for _ in 0..<3 { try f.store.recordShow(campaignID: "a", at: f.now) }
        #expect(try f.catalog().first { $0.campaign.id == "a" }?.remaining == 2)

        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 2}, {"id": "b", "picUrl": "b.png", "showTime": 5}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        #expect(try f.catalog().first { $0.campaign.id == "a" }?.remaining == 0)
        #expect(try f.eligibleIDs() == ["b"])

        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 10}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        #expect(try f.catalog().map(\.campaign.id) == ["a"])
        #expect(try f.catalog().first?.remaining == 7)
        // b's history stays, though it is no longer shown.
        #expect(try f.store.campaigns(includeInactive: true).contains { $0.campaign.id == "b" && !$0.active })
    }

    @Test func anEmptyListRetiresEverything() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 5}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        try f.publish("feed.json", "[]")
        let r = f.sync(f.feedURL())
        #expect(r.status == .ok && r.campaigns == 0)
        #expect(r.warnings.contains { $0.hasPrefix("the feed lists no campaigns: every campaign is retired") }, "\(r.warnings)")
        #expect(try f.eligibleIDs().isEmpty)
    }

    /// After each failure the last good campaign is still there and the cache is clean.
    @Test(arguments: [
        ("/status/500", "500"), ("/status/404", "404"), ("/hang", "in time"), ("/reset", "cannot fetch"),
        ("/truncated/feed.json", "closed the connection before the whole answer came"), ("/files/broken.json", "not valid JSON"),
        ("/files/invalid.json", "no campaign"), ("/redirect/0", "redirected"), ("/files/huge.json", "limit"),
    ])
    func aFailedSyncKeepsTheLastGoodFeed(path: String, expected: String) throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 5, "title": "\#(String(repeating: "长", count: 50))"}]"#)
        try f.publish("broken.json", #"[{"id": "a", "picUrl": "#)
        try f.publish("invalid.json", #"[{"id": "x"}]"#)
        try f.publish("huge.json", "[" + String(repeating: " ", count: 1 << 20) + "]")
        #expect(f.sync(f.feedURL()).status == .ok)
        let before = try f.catalog()

        let report = f.sync(f.server.url(path))
        #expect(report.status == .error)
        #expect(report.error?.contains(expected) == true, "got: \(report.error ?? "no error")")
        #expect(try f.catalog() == before)
        #expect(try f.eligibleIDs() == ["a"])
        #expect(try f.store.feedState(for: f.server.url(path)).lastError == report.error)
        #expect(f.cacheIsClean())
    }

    /// Bad pictures are refused with a reason and never get a final cache name.
    @Test(arguments: [
        ("/as/text%2Fhtml/page.html", "HTML"), ("/truncated/good.png", "cannot fetch"), ("/files/cut.jpg", "cut short"),
        ("/big/21", "20 MiB"), ("/files/anim.gif", "GIF"), ("/files/empty.png", "empty"), ("/status/404", "404"),
        ("/files/huge.png", "60000"), ("/files/pic.svg", "SVG"),
    ])
    func badPicturesAreRefused(path: String, expected: String) throws {
        let f = try SyncFixture()
        try f.publishImage("good.png", red)
        try f.publish("page.html", "<!DOCTYPE html><html><body>Sorry</body></html>")
        try f.publish("anim.gif", "GIF89a\u{1}\u{0}\u{1}\u{0}")
        try f.publish("empty.png", "")
        try f.publish("pic.svg", #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>"#)
        var cut = try Data(contentsOf: URL(fileURLWithPath: f.www + "/good.png"))
        try writeImage(f.www + "/whole.jpg", width: 320, height: 180, bands: [blue])
        cut = try Data(contentsOf: URL(fileURLWithPath: f.www + "/whole.jpg"))
        try cut.prefix(cut.count - 200).write(to: URL(fileURLWithPath: f.www + "/cut.jpg"))
        var huge = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
        huge.append(contentsOf: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 6, 0, 0, 0])
        try huge.write(to: URL(fileURLWithPath: f.www + "/huge.png"))

        try f.publish("feed.json", """
        [{"id": "good", "picUrl": "good.png", "showTime": 5, "updatedAt": "2026-01-01T00:00:00Z"},
         {"id": "bad", "picUrl": "\(f.server.url(path).absoluteString)", "showTime": 5, "updatedAt": "2026-06-01T00:00:00Z"}]
        """)
        let report = f.sync(f.feedURL())
        #expect(report.status == .ok)
        let problem = report.pictureErrors.first { $0.contains("\"bad\"") }
        #expect(problem?.contains(expected) == true, "\(report.pictureErrors)")
        // The newer campaign has no usable picture, so the older one is what shows.
        #expect(try f.eligibleIDs() == ["good"])
        #expect(CatalogEntry.nextToShow(in: try f.catalog(), at: f.now, context: RuleContext(clockTrusted: true, deviceTimeZone: .gmt)).map { try! f.catalog()[$0].campaign.id } == "good")
        #expect(f.cacheIsClean())
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.cacheDir).count == 1)
    }

    @Test func aPictureThatFailedIsFetchedAgainWhenTheFeedIsUnchanged() throws {
        let f = try SyncFixture()
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 5}]"#)
        let first = f.sync(f.feedURL())
        #expect(first.status == .ok)
        #expect(try f.eligibleIDs().isEmpty)
        try f.publishImage("a.png", red)
        let second = f.sync(f.feedURL())
        #expect(second.status == .notModified)
        #expect(try f.eligibleIDs() == ["a"])
    }

    @Test func aRefusedPictureIsLeftAloneByTheKiosksSyncsAndCheckedAgainBySyncRunByHand() throws {
        let f = try SyncFixture()
        try f.publish("a.png", "<!doctype html><html><body>Not found</body></html>")
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 5}]"#)
        #expect(f.sync(f.feedURL()).pictureErrors.first?.contains("looks like an HTML page") == true)
        // Fixed in place: the kiosk's own syncs do not fetch it again, after a 304 or a new feed.
        try f.publishImage("a.png", red)
        #expect(f.sync(f.feedURL()).status == .notModified)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 6}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        #expect(try f.server.requestCounts()["/files/a.png"] == 1)
        #expect(try f.eligibleIDs().isEmpty)
        // A sync run by hand checks it again, after a 304 as after a new feed.
        let byHand = f.feedSync()
        byHand.options.retryRefused = true
        #expect(byHand.sync(f.feedURL(), now: f.now).status == .notModified)
        #expect(try f.server.requestCounts()["/files/a.png"] == 2)
        #expect(try f.eligibleIDs() == ["a"])
        try f.publish("b.png", "<!doctype html><html><body>Not found</body></html>")
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 6}, {"id": "b", "picUrl": "b.png", "showTime": 1}]"#)
        #expect(f.sync(f.feedURL()).pictureErrors.count == 1)
        try f.publishImage("b.png", red)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 7}, {"id": "b", "picUrl": "b.png", "showTime": 1}]"#)
        #expect(byHand.sync(f.feedURL(), now: f.now).status == .ok)
        #expect(try f.eligibleIDs() == ["a", "b"])
    }

    @Test func aRefusedClipIsLeftAloneByTheKiosksSyncsUnlessItsLimitIsRaisedAndCheckedAgainBySyncRunByHand() throws {
        let f = try SyncFixture()
        try f.publishImage("poster.png", red)
        try Clips.make(f.www + "/long.mp4", size: "64x48", rate: 2, seconds: 61)
        try Clips.make(f.www + "/big.mp4", size: "640x480", seconds: 2, extra: ["-b:v", "8M", "-minrate", "8M", "-maxrate", "8M",
                                                                             "-bufsize", "8M"])
        try f.publish("feed.json", #"""
            [{"id": "long", "picUrl": "poster.png", "videoUrl": "long.mp4", "showTime": 5},
             {"id": "big", "picUrl": "poster.png", "videoUrl": "big.mp4", "showTime": 5}]
            """#)
        func sync(maxMB: Int, byHand: Bool = false) -> String {
            let sync = f.feedSync(videoMaxBytes: maxMB << 20)
            sync.options.retryRefused = byHand
            return sync.sync(f.feedURL(), now: f.now).warnings.joined(separator: "\n")
        }
        let first = sync(maxMB: 1)
        #expect(first.contains("campaign long: video") && first.contains("campaign big: video"), "\(first)")
        // The kiosk's own sync: nothing fetched again, until video-max-mb is raised above the
        // size one was refused for.
        #expect(sync(maxMB: 1).isEmpty)
        #expect(sync(maxMB: 100).isEmpty)
        let counts = try f.server.requestCounts()
        #expect(counts["/files/long.mp4"] == 1 && counts["/files/big.mp4"] == 2, "\(counts)")
        #expect(try f.catalog().first { $0.campaign.id == "big" }?.video != nil)
        // Fixed in place, the long one is checked again by a sync run by hand, and plays.
        try Clips.make(f.www + "/long.mp4", size: "64x48", rate: 2, seconds: 2)
        #expect(sync(maxMB: 100).isEmpty)
        #expect(try f.catalog().first { $0.campaign.id == "long" }?.video == nil)
        #expect(sync(maxMB: 100, byHand: true).isEmpty)
        #expect(try f.catalog().first { $0.campaign.id == "long" }?.video != nil)
        #expect(try f.server.requestCounts()["/files/long.mp4"] == 2)
    }

    @Test func fileFeedsSyncAndAnUnchangedFileIsNotModified() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"{"campaigns": [{"id": "a", "picUrl": "a.png", "showTime": 5}]}"#)
        let url = URL(fileURLWithPath: f.www + "/feed.json")
        #expect(f.sync(url).status == .ok)
        #expect(try f.eligibleIDs() == ["a"])
        let before = try f.databaseFingerprint()
        #expect(f.sync(url).status == .notModified)
        #expect(try f.databaseFingerprint() == before)
        #expect(f.sync(URL(fileURLWithPath: f.www + "/missing.json")).error?.contains("no such file") == true)
    }

    @Test func redirectsAreFollowed() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        let (result, data) = try f.fetcher.fetchData(f.server.url("/to-http/a.png"), limit: 1 << 20)
        if case .fetched = result {} else { Issue.record("expected a body") }
        #expect(data.starts(with: [0x89, 0x50]))
    }

    @Test func oneFetcherServesRequestsSideBySide() throws {
        let f = try SyncFixture()
        let sizes = [(320, 180), (640, 360), (100, 100), (800, 200)]
        for (i, size) in sizes.enumerated() {
            try f.publishImage("p\(i).png", [red, blue, green, magenta][i], width: size.0, height: size.1)
        }
        // Four requests at once through one session: each answer reaches its own caller.
        var bodies = [Data](repeating: Data(), count: sizes.count)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: sizes.count) { i in
            let body = try? f.fetcher.fetchData(f.server.url("/files/p\(i).png"), limit: 1 << 20).1
            lock.lock()
            bodies[i] = body ?? Data()
            lock.unlock()
        }
        for (i, size) in sizes.enumerated() {
            let expected = try Data(contentsOf: URL(fileURLWithPath: f.www + "/p\(i).png"))
            #expect(bodies[i] == expected, "picture \(i) (\(size))")
        }
        // Shorter timeouts after the session exists still apply: a hanging server is cut.
        f.fetcher.idleTimeout = 10
        f.fetcher.totalTimeout = 2
        #expect(throws: FetchError.timedOut(seconds: 2, url: f.server.url("/hang").absoluteString)) {
            try f.fetcher.fetchData(f.server.url("/hang"), limit: 1 << 20)
        }
    }

    /// On a clock of the test's that moves 250 ms each time it is read: the report says the
    /// time between the sync's first and last reading, within what the test saw pass.
    @Test func aSyncSaysHowLongItTook() throws {
        final class Steps: @unchecked Sendable {
            let lock = NSLock()
            var now: Seconds = 100
            func read() -> Seconds { lock.lock(); defer { lock.unlock() }; now += 0.25; return now }
        }
        let steps = Steps()
        let f = try SyncFixture(clock: NetworkClock(uptime: { steps.read() }, date: { Date() }, draw: { 0.5 }))
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 3}]"#)
        for url in [f.feedURL(), f.feedURL(), f.feedURL("missing.json")] {
            let before = steps.read()
            let report = f.sync(url)
            let passed = (steps.read() - before) * 1e3
            let ms = try #require(report.milliseconds, "\(report)")
            #expect(ms >= 250 && ms < passed && ms.truncatingRemainder(dividingBy: 250) == 0, "reported \(ms) ms of \(passed) ms")
        }
    }

    @Test func goingBackToAnEarlierFeedAppliesItAgain() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publishImage("b.png", blue)
        try f.publish("a.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 3}]"#)
        try f.publish("b.json", #"[{"id": "b", "picUrl": "b.png", "showTime": 3}]"#)
        #expect(f.sync(f.feedURL("a.json")).status == .ok)
        #expect(f.sync(f.feedURL("b.json")).status == .ok)
        #expect(try f.eligibleIDs() == ["b"])
        // Feed a has not changed since it was last read, but b's campaigns are the ones up.
        let back = f.sync(f.feedURL("a.json"))
        #expect(back.status == .ok)
        #expect(try f.eligibleIDs() == ["a"])
        // From then on, a unchanged is a 304 again.
        #expect(f.sync(f.feedURL("a.json")).status == .notModified)
    }
}
