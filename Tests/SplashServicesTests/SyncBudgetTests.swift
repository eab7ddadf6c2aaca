import Foundation
import SplashCore
import SplashNetwork
import SplashStorage
import SplashTestSupport
import Testing

/// A sync is bounded however its servers behave: a body that drips in is stopped by the
/// minimum transfer rate, and what the sync's budget has no time left for waits for the
/// next sync — against clips that send a valid first box and then a byte a second.
@Suite struct SyncBudgetTests {
    /// A feed of a poster and three dripping clips.
    func dripping() throws -> SyncFixture {
        let f = try SyncFixture()
        try f.publishImage("poster.png", red)
        let clips = (1...3).map { #"{"id": "v\#($0)", "picUrl": "poster.png", "videoUrl": "/drip-clip/\#($0).mp4", "showTime": 5}"# }
        try f.publish("feed.json", "[" + clips.joined(separator: ", ") + "]")
        // A byte a second is progress: no request is idle.
        f.fetcher.idleTimeout = 5
        f.fetcher.totalTimeout = 30
        return f
    }

    @Test func aClipThatDripsInIsStoppedByTheMinimumRate() throws {
        let f = try dripping()
        // 4 KiB in every 2 s: a byte a second is far below it.
        f.fetcher.minimumRate = TransferPace(bytes: 4 << 10, seconds: 2)
        let report = f.sync(f.feedURL())
        #expect(report.status == .ok)
        let slow = report.warnings.filter { $0.contains("came in too slowly") && $0.contains("its picture is shown until it is") }
        #expect(slow.count == 3, "\(report.warnings)")
        // Each waits for the next sync; the campaigns show their poster meanwhile.
        #expect(try f.eligibleIDs().sorted() == ["v1", "v2", "v3"])
        #expect(f.cacheIsClean())
    }

    @Test func whatTheBudgetHasNoTimeForWaitsForTheNextSync() throws {
        let f = try dripping()
        // No rate to stop them: the budget alone bounds the sync.
        f.fetcher.minimumRate = TransferPace(bytes: 1, seconds: 3600)
        let sync = f.feedSync()
        sync.options.budgetSeconds = 4
        let report = sync.sync(f.feedURL(), now: f.now)
        #expect(report.status == .ok)
        // The first clip is cut at the budget's end; the others are not started.
        let cut = report.warnings.filter { $0.contains("did not answer in time") }
        let unstarted = report.warnings.filter { $0.contains("not fetched: this sync's 4 s were used up (the next sync fetches it)") }
        #expect(cut.count == 1 && unstarted.count == 2, "\(report.warnings)")
        #expect(f.cacheIsClean())
    }
}

/// A feed that renames its campaigns at every sync cannot grow the database without end:
/// retired campaigns are kept up to a count as well as for 90 days.
@Suite struct RetiredCampaignTests {
    @Test func retiredCampaignsAreKeptUpToTheirLimit() throws {
        let f = try SyncFixture()
        try f.publishImage("a.png", red)
        let perFeed = 4_000
        for round in 0..<4 {
            let entries = (0..<perFeed).map { #"{"id": "r\#(round)-\#($0)", "picUrl": "a.png", "showTime": 1}"# }
            try f.publish("feed.json", "[" + entries.joined(separator: ",") + "]")
            #expect(f.sync(f.feedURL()).status == .ok)
            f.now = f.now.addingTimeInterval(3600)
        }
        let stored = try f.store.campaigns(includeInactive: true, thumbnails: false)
        #expect(stored.filter(\.active).count == perFeed)
        // 12,000 retired, of which the 10,000 gone the shortest while are kept: the two
        // rounds before the last whole, and half of the first.
        let retired = stored.filter { !$0.active }
        #expect(retired.count == CampaignStore.retiredLimit, "\(retired.count)")
        let byRound = Dictionary(grouping: retired) { $0.campaign.id.rawValue.prefix(3) }.mapValues(\.count)
        #expect(byRound == ["r0-": 2_000, "r1-": 4_000, "r2-": 4_000], "\(byRound)")
    }
}
