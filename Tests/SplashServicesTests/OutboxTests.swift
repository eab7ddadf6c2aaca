import Foundation
import Glibc
import SplashCore
@testable import SplashServices
@testable import SplashNetwork
@testable import SplashStorage
import SplashTestSupport
import Testing

/// The tracking pings' outbox against trackers as they are: one that answers too late,
/// one that answers at once, URLs that smuggle a second one.
@Suite struct OutboxTests {
    let folder: String
    let server: TestServer
    let store: CampaignStore

    init() throws {
        folder = try temporaryFolder()
        server = try TestServer(root: folder)
        store = try CampaignStore(dataDir: folder + "/data")
    }

    /// Applies a feed of one campaign with these impression URLs (as stored, unchecked).
    func campaign(impressions: [String]) throws {
        var document = try FeedDocument.decode(Data(#"[{"id": "ad", "picUrl": "a.jpg", "showTime": 100}]"#.utf8),
                                               from: server.url("/files/feed.json"), deviceZone: .gmt)
        document.campaigns[0].impressionURLs = impressions
        try store.apply(document, from: server.url("/files/feed.json"), etag: nil, lastModified: nil, images: [:], at: Date())
    }

    func tracked() throws -> [String] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: server.url("/tracked"))) as? [String] ?? []
    }

    @Test func aPingDeliveredButAnsweredTooLateIsNeverSentAgain() throws {
        try campaign(impressions: [server.url("/late-track/3/imp?s={show}").absoluteString])
        try store.recordShow(campaignID: "ad", at: Date())
        #expect(try store.pingCount() == 1)
        let fetcher = Fetcher()
        fetcher.idleTimeout = 1
        fetcher.totalTimeout = 2
        var warnings: [String] = []
        let lock = NSLock()
        let pings = TrackingPings(dataDir: folder + "/data", fetcher: fetcher, clock: .system) { line in
            lock.lock(); warnings.append(line); lock.unlock()
        }
        pings.wake()
        pings.finish()
        // The answer does not come in time: the ping is settled (it may have arrived) and pruned.
        #expect(try store.pingCount() == 0, "the ping went back to waiting")
        // Another round, as after the next show or sync, sends nothing.
        pings.wake()
        pings.finish()
        let sent = try tracked()
        #expect(sent.count == 1, "\(sent)")
        lock.lock()
        #expect(warnings.contains { $0.contains("1 pings sent without an answer; not sent again") }, "\(warnings)")
        lock.unlock()
    }

    /// A tracker that redirects to a refused port or a name that does not resolve was
    /// reached: its ping is sent, once, however many rounds follow.
    @Test func aPingWhoseRedirectFailsWasDeliveredAndIsNeverSentAgain() throws {
        // Written out, not made with URL(string:), which would encode the `to`'s escapes again
        // (for the `{show}` in it) and send the tracker's redirect nowhere it was meant to.
        let refused = "http://127.0.0.1:\(server.port)/track-to/imp?s={show}&to=http%3A%2F%2F127.0.0.1%3A9%2Fx"
        let unresolvable = "http://127.0.0.1:\(server.port)/track-to/imp?s={show}&to=http%3A%2F%2Fnowhere.invalid%2Fx"
        try campaign(impressions: [refused, unresolvable])
        try store.recordShow(campaignID: "ad", at: Date())
        #expect(try store.pingCount() == 2)
        let pings = TrackingPings(dataDir: folder + "/data", fetcher: Fetcher(), clock: .system) { _ in }
        for _ in 0..<3 {
            pings.wake()
            pings.finish()
        }
        let sent = try tracked()
        #expect(sent.count == 2 && sent.allSatisfy { $0.hasPrefix("/track-to/imp?s=") }, "\(sent)")
        #expect(try store.pingCount() == 0)
    }

    /// A ping whose tracker cannot be reached waits for the next round, for 24 hours: on a
    /// clock of the test's, a round a day later gives it up with a warning, sending nothing.
    @Test func aPingNeverSentIsGivenUpAfterADay() throws {
        try campaign(impressions: ["http://127.0.0.1:9/imp?s={show}"])
        try store.recordShow(campaignID: "ad", at: Date())
        final class Box: @unchecked Sendable {
            var now = Date()
            var warnings: [String] = []
        }
        let box = Box()
        let pings = TrackingPings(dataDir: folder + "/data", fetcher: Fetcher(),
                                  clock: NetworkClock(uptime: { 0 }, date: { box.now }, draw: { 0.5 }),
                                  warn: { box.warnings.append($0) })
        pings.wake()
        pings.finish()
        #expect(try store.waitingPings(limit: 10).count == 1, "a ping that never left was not kept: \(box.warnings)")
        box.now += TrackingURL.keepSeconds - 60
        pings.wake()
        pings.finish()
        #expect(try store.waitingPings(limit: 10).count == 1, "given up before its day")
        box.now += 120
        pings.wake()
        pings.finish()
        #expect(try store.pingCount() == 0)
        #expect(box.warnings.contains { $0.contains("1 pings given up (not sent in 24 hours") }, "\(box.warnings)")
    }

    @Test func listsJoinedByLineBreaksBecomeJSONArraysAndTheFeedIsReadAfresh() throws {
        try campaign(impressions: ["https://t.test/a"])
        // A database of schema 8: lists joined by line breaks, a smuggled file URL in one.
        let db = try SQLiteDatabase(path: folder + "/data/" + CampaignStore.fileName)
        try db.execute("UPDATE campaigns SET impression_urls = ?, click_urls = ?",
                       [.text("https://t.test/a\nfile:///etc/hostname"), .text("https://t.test/c")])
        try db.execute("UPDATE feed_state SET etag = 'v1', warnings = ?", [.text("one\ntwo")])
        // (and its ledger as it was then: a table naming each campaign by its id)
        try db.execute("""
        CREATE TABLE shows_then AS SELECT id, campaign_id, shown_at, outcome, show_id, ended_by, ended_at, reported FROM shows;
        DROP VIEW shows; DROP TABLE ledger; DROP TABLE campaign_keys; ALTER TABLE shows_then RENAME TO shows;
        ALTER TABLE feed_state DROP COLUMN screen; ALTER TABLE feed_state DROP COLUMN device_groups;
        DROP INDEX campaigns_active_videos; ALTER TABLE thumbnails DROP COLUMN motion; DROP TABLE cached_files;
        ALTER TABLE campaigns DROP COLUMN video_url; ALTER TABLE campaigns DROP COLUMN video_facts;
        ALTER TABLE campaigns DROP COLUMN video_problem; ALTER TABLE campaigns DROP COLUMN video_waiting; ALTER TABLE campaigns DROP COLUMN focus; ALTER TABLE campaigns DROP COLUMN portrait_url; ALTER TABLE campaigns DROP COLUMN portrait_key; ALTER TABLE campaigns DROP COLUMN portrait_problem; ALTER TABLE campaigns DROP COLUMN groups; ALTER TABLE campaigns DROP COLUMN link_label; ALTER TABLE campaigns DROP COLUMN video_refused_mb;
        PRAGMA user_version = 8;
        """)
        let reopened = try CampaignStore(dataDir: folder + "/data")
        let stored = try #require(try reopened.campaigns(thumbnails: false).first)
        #expect(stored.campaign.impressionURLs == ["https://t.test/a"])
        #expect(stored.campaign.clickURLs == ["https://t.test/c"])
        let state = try reopened.feedState(for: server.url("/files/feed.json"))
        #expect(state.warnings == ["one", "two"])
        #expect(state.etag == nil, "the feed is read in full at the next sync")
        let text = try db.rows("SELECT impression_urls FROM campaigns").first?["impression_urls"].text
        #expect(text?.hasPrefix("[") == true, "\(text ?? "nil")")
    }

    /// A campaign stored with a long picture URL as its id (no id in its feed) keeps its
    /// shows under the stand-in id a feed now gives it: its count goes on, it is not shown
    /// afresh.
    @Test func aLongDefaultIdKeepsItsShowsUnderItsStandIn() throws {
        try campaign(impressions: [])
        for _ in 0..<3 { try store.recordShow(campaignID: "ad", at: Date()) }
        let long = "https://cdn.example.test/signed/" + String(repeating: "s", count: 400) + ".jpg"
        let db = try SQLiteDatabase(path: folder + "/data/" + CampaignStore.fileName)
        try db.execute("""
        CREATE TABLE shows_then AS SELECT id, campaign_id, shown_at, outcome, show_id, ended_by, ended_at, reported FROM shows;
        DROP VIEW shows; DROP TABLE ledger; DROP TABLE campaign_keys; ALTER TABLE shows_then RENAME TO shows;
        ALTER TABLE feed_state DROP COLUMN screen; ALTER TABLE feed_state DROP COLUMN device_groups;
        DROP INDEX campaigns_active_videos; ALTER TABLE thumbnails DROP COLUMN motion; DROP TABLE cached_files;
        ALTER TABLE campaigns DROP COLUMN video_url; ALTER TABLE campaigns DROP COLUMN video_facts;
        ALTER TABLE campaigns DROP COLUMN video_problem; ALTER TABLE campaigns DROP COLUMN video_waiting; ALTER TABLE campaigns DROP COLUMN focus; ALTER TABLE campaigns DROP COLUMN portrait_url; ALTER TABLE campaigns DROP COLUMN portrait_key; ALTER TABLE campaigns DROP COLUMN portrait_problem; ALTER TABLE campaigns DROP COLUMN groups; ALTER TABLE campaigns DROP COLUMN link_label; ALTER TABLE campaigns DROP COLUMN video_refused_mb;
        PRAGMA user_version = 9;
        """)
        try db.execute("UPDATE campaigns SET id = ?, pic_url = ?", [.text(long), .text(long)])
        try db.execute("UPDATE shows SET campaign_id = ?", [.text(long)])
        let reopened = try CampaignStore(dataDir: folder + "/data")
        let stored = try #require(try reopened.campaigns(thumbnails: false).first)
        let fromFeed = try FeedDocument.decode(Data(#"[{"picUrl": "\#(long)", "showTime": 100}]"#.utf8),
                                               from: server.url("/files/feed.json"), deviceZone: .gmt)
        #expect(stored.campaign.id == fromFeed.campaigns.first?.id && stored.campaign.id.rawValue.hasPrefix("picUrl-"))
        #expect(stored.shows == 3)
    }

    /// The ledger names a campaign by a small key: what 300 shows take does not grow with
    /// the length of the id (at 200 characters, repeated in each row and two indexes, it
    /// was about 600 bytes a show).
    @Test func theLedgerDoesNotRepeatTheCampaignsId() throws {
        func pages(id: String) throws -> Int64 {
            let dir = try temporaryFolder()
            let store = try CampaignStore(dataDir: dir)
            for i in 0..<300 {
                try store.recordShow(campaignID: Campaign.ID(id), at: Date(timeIntervalSince1970: 1_790_000_000 + Double(i)))
                try store.endShow(campaignID: Campaign.ID(id), by: .timeout, at: Date(timeIntervalSince1970: 1_790_000_000 + Double(i)))
            }
            let db = try SQLiteDatabase(path: dir + "/" + CampaignStore.fileName)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return try db.rows("PRAGMA page_count").first?["page_count"].int ?? 0
        }
        let short = try pages(id: "a")
        let long = try pages(id: String(repeating: "x", count: FeedDocument.maxID))
        #expect(long <= short + 1, "\(long) pages with a 200-character id, \(short) with one character")
    }

    @Test func waitingPingsAreCappedOldestFirst() throws {
        try campaign(impressions: ["http://127.0.0.1:9/imp?s={show}"])
        for _ in 0..<30 { try store.recordShow(campaignID: "ad", at: Date()) }
        #expect(try store.dropWaitingPings(keeping: 10) == 20)
        #expect(try store.prunePings() == 20)
        let kept = try store.waitingPings(limit: 100).map(\.id)
        #expect(kept.count == 10 && kept == kept.sorted() && kept.first ?? 0 > 20, "\(kept)")
    }

    @Test func sentPingsAreDeletedAndOnlyOneURLIsEverSentPerEntry() throws {
        // A template stored with a line break (as a feed could once smuggle one): one URL, never two.
        let canary = server.url("/track/first").absoluteString + "\n" + server.url("/track/smuggled").absoluteString
        try campaign(impressions: [server.url("/track/imp?s={show}").absoluteString, canary, "file:///etc/hostname"])
        for _ in 0..<3 { try store.recordShow(campaignID: "ad", at: Date()) }
        #expect(try store.pingCount() == 3, "only the sendable URL makes pings")
        let pings = TrackingPings(dataDir: folder + "/data", fetcher: Fetcher(), clock: .system) { _ in }
        pings.wake()
        pings.finish()
        #expect(try store.pingCount() == 0)
        let sent = try tracked()
        #expect(sent.count == 3 && sent.allSatisfy { $0.hasPrefix("/track/imp?s=") }, "\(sent)")
    }
}
