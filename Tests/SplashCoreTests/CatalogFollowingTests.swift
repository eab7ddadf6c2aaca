import Foundation
import SplashCore
import Testing

/// The kiosk follows its database: a catalog another writer left is taken before the next
/// splash, and only a splash whose picture opened and decoded is a show.
@Suite struct CatalogFollowingTests {
    /// Started, first frame up, first sync answered: the kiosk's ordinary running state.
    func running(_ catalog: [CatalogEntry], clock: ManualClock) -> KioskState {
        var state = makeState(catalog)
        state.settings.pick = .rotate
        // Rotating, a start after this show would show the next campaign.
        let next = catalog.count > 1 ? "/img/\(catalog[1].campaign.id).jpg" : nil
        send(&state, .started(clock.now), presenting: .splash,
             expecting: splashStarted(at: date(after: 0), remaining: 4, next: next) + firstFrame)
        reduce(&state, .feedFetched(SyncReport(status: .notModified, campaigns: catalog.count), catalog: nil,
                                    message: nil, screen: nil, clock.now),
               expecting: [.emit(.sync(status: .notModified, campaigns: catalog.count, error: nil, ms: nil, reason: nil))])
        return state
    }

    /// What the attract loop's splash of `id` says and asks for: its show recorded at `date`,
    /// its picture, the shows it has left, and the picture a start would show next (`next`;
    /// nil: its own). With no `id`, the default picture, which counts nothing.
    func splash(_ id: Campaign.ID?, at date: Date, remaining: Int, next: Campaign.ID? = nil) -> [KioskEffect] {
        guard let id else {
            return [.emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)), .emit(.countdown(value: 3))]
        }
        return [
            .recordShow(campaignID: id, at: date, media: .picture, picture: "/img/\(id).jpg"), .notePictureUsed(path: "/img/\(id).jpg"),
            .emit(.splash(campaign: id, remaining: remaining, image: "/img/\(id).jpg", media: .picture)), .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/\(next ?? id).jpg"),
        ]
    }

    /// Rounds of skip and wait for the attract loop, with the shell's answers, expecting in
    /// each the splash `expected` names (campaign, shows left, next picture); the ids shown.
    func splashes(_ state: inout KioskState, _ clock: inout ManualClock,
                  _ expected: [(id: Campaign.ID?, remaining: Int, next: Campaign.ID?)]) -> [Campaign.ID?] {
        var shown: [Campaign.ID?] = []
        for round in expected {
            // The show on the screen (if it counts) ends by the key.
            let skipped = clock.advance(1)
            var shows: Campaign.ID?
            if case .splash(let splash) = state.scene { shows = splash.campaignID }
            send(&state, .keyPressed(.escape, skipped), expecting: (shows.map { [.endShow(campaignID: $0, by: .key, at: skipped.date)] } ?? [])
                    + [.emit(.skip(by: .key)), .emit(.detail(campaign: shows))])
            let due = clock.advance(Double(state.settings.attractAfter))
            send(&state, .tick(due), expecting: splash(round.id, at: due.date, remaining: round.remaining, next: round.next))
            if case .splash(let splash) = state.scene { shown.append(splash.campaignID) }
        }
        return shown
    }

    @Test func aCampaignDroppedByAnotherWriterIsNeverShownAgainAndANewOneAtTheNextSplash() {
        var clock = ManualClock()
        var state = running([entry("a"), entry("b")], clock: clock)
        #expect(Set(splashes(&state, &clock, [("b", 4, "a"), ("a", 3, "b")]).compactMap { $0 }) == ["a", "b"])
        // `splashboard sync` by hand: "a" is gone from the feed, "c" is new and first.
        var c = entry("c")
        c.campaign.priority = 5
        reduce(&state, .catalogChanged([entry("b", shows: 1), c], message: "new", screen: nil, clock.now), expecting: [])
        #expect(state.feedMessage == "new")
        // "c" until its five shows are used up, then "b" (with the show it had).
        let after = splashes(&state, &clock, [("c", 4, nil), ("c", 3, nil), ("c", 2, nil), ("c", 1, nil), ("c", 0, "b"), ("b", 3, nil)])
        #expect(after.first == "c")
        #expect(!after.contains("a"))
    }

    @Test func picturesGoneFromTheCacheAreFetchedAgainAtOnce() {
        var clock = ManualClock()
        var state = running([entry("a"), entry("b")], clock: clock)
        _ = splashes(&state, &clock, [("b", 4, "a")])
        // `cache clear`: every picture gone.
        reduce(&state, .catalogChanged([entry("a", shows: 1, image: nil), entry("b", image: nil)], message: nil, screen: nil, clock.now),
               expecting: [.fetchFeed])
        #expect(state.sync.running)
        // The next splashes are the default picture, and count nothing.
        let counted = state.catalog.map(\.shows)
        #expect(counted == [1, 1])
        #expect(splashes(&state, &clock, [(nil, 0, nil), (nil, 0, nil)]) == [nil, nil])
        #expect(state.catalog.map(\.shows) == counted)
        // A catalog where nothing was lost asks for nothing.
        reduce(&state, .catalogChanged([entry("a", shows: 1, image: nil)], message: nil, screen: nil, clock.now), expecting: [])
    }

    @Test func aSplashWhosePictureIsGoneIsNoShowAndTheNextCampaignIsShown() throws {
        var clock = ManualClock()
        var state = running([entry("a"), entry("b")], clock: clock)
        send(&state, .keyPressed(.escape, clock.advance(1)), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 1)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        reduce(&state, .tick(clock.advance(Double(state.settings.attractAfter))), expecting: [
            .recordShow(campaignID: "b", at: clock.now.date, media: .picture, picture: "/img/b.jpg"),
        ])
        let (id, picture): (Campaign.ID, String) = ("b", "/img/b.jpg")
        let other: Campaign.ID = id == "a" ? "b" : "a"
        let before = state.catalog.map(\.shows)
        // The shell found the file gone: nothing recorded, a fetch, and the splash goes to the other.
        reduce(&state, .pictureUnusable(campaignID: id, path: picture, .gone, clock.now),
               expecting: [
            .emit(.error(message: "cannot show image \(picture): the file is gone; no show counted; it is fetched again")),
            .fetchFeed,
            .recordShow(campaignID: other, at: clock.now.date, media: .picture, picture: "/img/\(other).jpg"),
        ])
        #expect(state.catalog.map(\.shows) == before)
        let lost = try #require(state.catalog.first { $0.campaign.id == id })
        #expect(lost.imagePath == nil)
        #expect(CampaignRules.ineligibility(of: lost, at: clock.now.date, context: state.ruleContext(clock.now))
                == "image missing: \(CatalogEntry.notCached)")
    }

    @Test func aBrokenPictureIsNoShowAndItsCampaignIsRefused() {
        var clock = ManualClock()
        var state = running([entry("a")], clock: clock)
        send(&state, .keyPressed(.escape, clock.advance(1)), expecting: [
            .endShow(campaignID: "a", by: .key, at: date(after: 1)),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
        ])
        reduce(&state, .tick(clock.advance(Double(state.settings.attractAfter))), expecting: [
            .recordShow(campaignID: "a", at: date(after: 11), media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .pictureUnusable(campaignID: "a", path: "/img/a.jpg", .undecodable("not a JPEG"), clock.now),
               expecting: [
            .emit(.error(message: "cannot show image /img/a.jpg: not a JPEG; no show counted; the campaign is not shown")),
            .emit(.splash(campaign: nil, remaining: nil, image: "/assets/default.jpg", media: .picture)),
            .emit(.countdown(value: 3)),
        ])
        #expect(state.catalog[0].shows == 1 && state.catalog[0].picture == .refused("not a JPEG", path: "/img/a.jpg"))
        // Said once: the same picture failing again is not repeated.
        #expect(state.failedImages.contains("/img/a.jpg"))
    }
}

/// A local feed read before the first frame is the first sync: kept by the core and taken
/// where the first sync would be asked for (the first frame), as the sync it is.
@Suite struct FirstReadAsSyncTests {
    @Test func aSyncBeforeTheStartStandsForTheFirst() {
        var state = makeState([entry("a")])
        let clock = ManualClock()
        reduce(&state, .syncedBeforeStart(SyncResult(report: SyncReport(status: .ok, campaigns: 1, warnings: ["w"]),
                                                    catalog: [entry("a")], message: nil, screen: nil)),
               expecting: [])
        send(&state, .started(clock.now), presenting: .splash,
             expecting: splashStarted(at: clock.now.date, remaining: 4) + [
                 .emit(.frame(scene: .splash)), .emit(.firstFrame(ms: 100)), .serviceReady,
                 .emit(.warning(message: "w")), .emit(.sync(status: .ok, campaigns: 1, error: nil, ms: nil, reason: nil)),
                 .reloadPoetry,
             ])
        #expect(!state.sync.running && state.earlySync == nil)
        let next = try? #require(state.sync.nextAt)
        #expect(next.map { $0 >= 900 * 0.9 && $0 <= 900 * 1.1 } == true, "the next sync is due at \(String(describing: next))")
        // Without it, the first frame asks for the sync.
        var plain = makeState([entry("a")])
        send(&plain, .started(clock.now), presenting: .splash, expecting: splashStarted(at: clock.now.date, remaining: 4) + firstFrame)
    }

    /// A run that ends at its first frame leaves it unsaid, as it asks for no sync.
    @Test func aRunEndingAtItsFirstFrameTakesNoSync() {
        var state = makeState([entry("a")])
        state.settings.exitAfter = .firstFrame
        let clock = ManualClock()
        reduce(&state, .syncedBeforeStart(SyncResult(report: SyncReport(status: .ok, campaigns: 1), catalog: nil, message: nil,
                                                    screen: nil)), expecting: [])
        send(&state, .started(clock.now), presenting: .splash, expecting: splashStarted(at: clock.now.date, remaining: 4) + [
            .emit(.frame(scene: .splash)), .emit(.firstFrame(ms: 100)), .serviceReady,
        ])
    }
}
