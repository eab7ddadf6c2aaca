import Foundation
import Testing
@testable import SplashCore

@Suite struct SelectionTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func latestUpdatedAtWins() {
        let catalog = [entry("a", updated: 300, position: 0), entry("b", updated: 100, position: 1),
                       entry("c", updated: 200, position: 2)]
        #expect(CatalogEntry.nextToShow(in: catalog, at: now, context: RuleContext(clockTrusted: true, deviceTimeZone: .gmt)) == 0)
    }

    @Test func withoutUpdatedAtTheLaterPositionWins() {
        let catalog = [entry("a", position: 0), entry("b", position: 1), entry("c", position: 2)]
        #expect(CatalogEntry.nextToShow(in: catalog, at: now, context: RuleContext(clockTrusted: true, deviceTimeZone: .gmt)) == 2)
    }

    @Test func campaignsOutsideTheirWindowOrUsedUpOrUncachedAreSkipped() {
        let catalog = [
            entry("ok", position: 0),
            entry("future", position: 1, start: now.addingTimeInterval(60)),
            entry("ended", position: 2, end: now),
            entry("used", showLimit: 3, shows: 3, position: 3),
            entry("uncached", position: 4, image: nil),
        ]
        #expect(CatalogEntry.nextToShow(in: catalog, at: now, context: RuleContext(clockTrusted: true, deviceTimeZone: .gmt)) == 0)
        #expect(catalog[1].isEligible(at: now.addingTimeInterval(60), context: RuleContext(clockTrusted: true, deviceTimeZone: .gmt)))
    }

    @Test func lowerShowTimeThanShowsLeavesZero() {
        #expect(entry("a", showLimit: 2, shows: 5).remaining == 0)
    }
}
