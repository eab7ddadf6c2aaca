import Foundation
import SplashCore
import SplashNetwork
import SplashServices
import SplashStorage
import SplashTestSupport
import Testing

/// A picture or clip replaced on its server under the same address reaches the cache: asked
/// for again with its validators by a sync run by hand, when the feed changed, when its
/// `max-age` ran out, or `revalidate-after` after it was last checked. "Not modified" writes
/// nothing; a changed file replaces the old one whole, or, refused, leaves it.
@Suite struct RevalidationTests {
    func cached(_ f: SyncFixture, _ url: URL) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: f.cache.path(forKey: ImageCache.key(for: url))))
    }

    func published(_ f: SyncFixture, _ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: f.www + "/" + name))
    }

    @Test func aPictureReplacedOnItsServerIsFetchedAgainAfterRevalidateAfterOrByHandAndANotModifiedWritesNothing() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 3}]"#)
        let kiosk = f.feedSync()
        kiosk.options.revalidateAfter = 3600
        #expect(kiosk.sync(f.feedURL(), now: f.now).status == .ok)
        let picture = f.server.url("/files/a.png")
        let key = ImageCache.key(for: picture)
        let redThumbnail = try #require(try f.store.thumbnail(forImageKey: key))

        // Replaced on the server: the kiosk's next sync, within the hour, does not ask.
        try f.publishImage("a.png", blue)
        #expect(kiosk.sync(f.feedURL(), now: f.now.addingTimeInterval(900)).status == .notModified)
        #expect(try f.server.requestCounts()["/files/a.png"] == 1)
        #expect(try cached(f, picture) != published(f, "a.png"))

        // An hour after it came: asked with its ETag, fetched, its thumbnail made again.
        let report = kiosk.sync(f.feedURL(), now: f.now.addingTimeInterval(3600))
        #expect(report.status == .notModified && report.warnings.isEmpty, "\(report)")
        #expect(report.replaced == [f.server.url("/files/a.png").publicAddress], "\(report)")
        #expect(try f.server.requestCounts()["/files/a.png"] == 2)
        #expect(try cached(f, picture) == published(f, "a.png"))
        #expect(try f.store.thumbnail(forImageKey: key) != redThumbnail)
        #expect(f.cacheIsClean())

        // Asked again by hand: "not modified", and not a byte written to the database.
        let before = try f.databaseFingerprint()
        let byHand = f.feedSync()
        byHand.options.revalidateAll = true
        let unchanged = byHand.sync(f.feedURL(), now: f.now.addingTimeInterval(3700))
        #expect(unchanged.status == .notModified && unchanged.replaced.isEmpty)
        #expect(try f.server.requestCounts()["304 /files/a.png"] == 1)
        #expect(try f.databaseFingerprint() == before)

        // Replaced again: a sync run by hand fetches it at once.
        try f.publishImage("a.png", green)
        #expect(byHand.sync(f.feedURL(), now: f.now.addingTimeInterval(3710)).status == .notModified)
        #expect(try cached(f, picture) == published(f, "a.png"))
        #expect(try f.eligibleIDs() == ["a"])
    }

    @Test func aChangedFeedAsksAndTheServersMaxAgeAndNoCacheDecide() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publishImage("b.png", blue)
        try f.publishImage("c.png", green)
        func feed(_ showLimit: Int) throws {
            try f.publish("feed.json", #"""
                [{"id": "a", "picUrl": "a.png", "showTime": \#(showLimit)},
                 {"id": "b", "picUrl": "b.png?cache-control=max-age%3D60", "showTime": 3},
                 {"id": "c", "picUrl": "c.png?cache-control=no-cache", "showTime": 3}]
                """#)
        }
        try feed(3)
        let kiosk = f.feedSync()
        #expect(kiosk.sync(f.feedURL(), now: f.now).status == .ok)
        func asked() throws -> [Int] {
            let counts = try f.server.requestCounts()
            return ["a", "b", "c"].map { counts["304 /files/\($0).png"] ?? 0 }
        }
        // Ten seconds on: only the no-cache one is asked for.
        #expect(kiosk.sync(f.feedURL(), now: f.now.addingTimeInterval(10)).status == .notModified)
        #expect(try asked() == [0, 0, 1])
        // The feed changed: the one without max-age is asked for too; max-age=60 is still fresh.
        try feed(4)
        #expect(kiosk.sync(f.feedURL(), now: f.now.addingTimeInterval(20)).status == .ok)
        #expect(try asked() == [1, 0, 2])
        // Past its max-age (well within revalidate-after): asked for.
        #expect(kiosk.sync(f.feedURL(), now: f.now.addingTimeInterval(61)).status == .notModified)
        #expect(try asked() == [1, 1, 3])
    }

    @Test func aServerWithoutValidatorsAnswersInFullAndTheSameBytesWriteNothing() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png?plain=1", "showTime": 3}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        let path = f.cache.path(forKey: ImageCache.key(for: f.server.url("/files/a.png?plain=1")))
        var before = stat()
        #expect(stat(path, &before) == 0)
        let database = try f.databaseFingerprint()
        let byHand = f.feedSync()
        byHand.options.revalidateAll = true
        let same = byHand.sync(f.feedURL(), now: f.now)
        #expect(same.status == .notModified && same.replaced.isEmpty)
        #expect(try f.server.requestCounts()["/files/a.png"] == 2)
        // Fetched whole, found the same: not swapped in, nothing noted.
        var after = stat()
        #expect(stat(path, &after) == 0 && after.st_ino == before.st_ino)
        #expect(try f.databaseFingerprint() == database)
        #expect(f.cacheIsClean())
    }

    @Test func aChangedPictureThatIsRefusedLeavesTheOldOneOnScreen() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 3}]"#)
        #expect(f.sync(f.feedURL()).status == .ok)
        let picture = f.server.url("/files/a.png")
        let old = try cached(f, picture)
        try f.publish("a.png", "<!doctype html><html><body>Not found</body></html>")
        let byHand = f.feedSync()
        byHand.options.revalidateAll = true
        let report = byHand.sync(f.feedURL(), now: f.now)
        #expect(report.warnings.contains { $0.contains("picture \(picture.absoluteString) changed on its server, but the new one is "
                                                        + "refused") && $0.contains("the one cached before is still shown") },
                "\(report.warnings)")
        #expect(try cached(f, picture) == old)
        #expect(try f.eligibleIDs() == ["a"])
        #expect(f.cacheIsClean())
    }

    @Test func aFilePictureIsComparedBySizeAndModificationTime() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        let picture = URL(fileURLWithPath: f.www + "/a.png")
        try f.publish("feed.json", #"[{"id": "a", "picUrl": "a.png", "showTime": 3}]"#)
        // A local feed, whose pictures may be local files.
        let feed = URL(fileURLWithPath: f.www + "/feed.json")
        let kiosk = f.feedSync()
        let first = kiosk.sync(feed, now: f.now)
        #expect(first.status == .ok, "\(first)")
        let key = ImageCache.key(for: picture)
        let thumbnail = try f.store.thumbnail(forImageKey: key)
        // Unchanged: nothing written.
        let before = try f.databaseFingerprint()
        #expect(kiosk.sync(feed, now: f.now.addingTimeInterval(10)).status == .notModified)
        #expect(try f.databaseFingerprint() == before)
        // Replaced: a local file costs a look, so the kiosk's next sync takes it.
        try f.publishImage("a.png", blue)
        #expect(kiosk.sync(feed, now: f.now.addingTimeInterval(20)).status == .notModified)
        #expect(try cached(f, picture) == published(f, "a.png"))
        #expect(try f.store.thumbnail(forImageKey: key) != thumbnail)
    }

    @Test func aClipReplacedOnItsServerIsFetchedAgainByHand() throws {
        let f = try SyncFixture()
        try f.publishImage("poster.png", red)
        try Clips.make(f.www + "/clip.mp4", size: "64x48", rate: 2, seconds: 2)
        try f.publish("feed.json", #"[{"id": "v", "picUrl": "poster.png", "videoUrl": "clip.mp4", "showTime": 5}]"#)
        #expect(f.sync(f.feedURL()).warnings.isEmpty)
        let clip = f.server.url("/files/clip.mp4")
        #expect(try f.catalog().first?.video?.facts.width == 64)
        try Clips.make(f.www + "/clip.mp4", size: "96x64", rate: 2, seconds: 2)
        let byHand = f.feedSync()
        byHand.options.revalidateAll = true
        let report = byHand.sync(f.feedURL(), now: f.now)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(try cached(f, clip) == published(f, "clip.mp4"))
        #expect(try f.catalog().first?.video?.facts.width == 96)
    }
}
