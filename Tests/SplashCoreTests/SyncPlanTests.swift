import Foundation
import Testing
@testable import SplashCore

@Suite struct SyncPlanTests {
    func campaign(_ id: Campaign.ID, _ picture: String) -> Campaign {
        Campaign(id: id, picURL: URL(string: "https://\(picture)")!, showLimit: 1, position: 0)
    }

    @Test func aSharedPictureIsPlannedOnceAndSilentHostsComeLast() {
        let feed = [campaign("a", "slow.test/1.jpg"), campaign("b", "cdn.test/2.jpg"), campaign("c", "cdn.test/2.jpg"),
                    campaign("d", "cdn.test/3.jpg"), campaign("e", "cdn.test/4.jpg"), campaign("f", "cdn.test/5.jpg")]
        let plan = SyncPlan(
            campaigns: feed, key: { $0.path }, known: ["e": .init(imageKey: "/4.jpg", refused: true)],
            isCached: { $0 == "/3.jpg" }, hasThumbnail: { _ in false }, isUnanswered: { $0.host == "slow.test" })
        // The refused picture is not asked for again; the others are noted for every campaign.
        #expect(plan.noted.map(\.campaignID) == ["a", "b", "c", "d", "f"])
        // Downloads once each, the host that did not answer last time after the others.
        #expect(plan.downloads.map(\.key) == ["/2.jpg", "/5.jpg", "/1.jpg"])
        #expect(plan.cached.map(\.picture.key) == ["/3.jpg"] && plan.cached.first?.needsThumbnail == true)
        // Outcomes go to every campaign of a picture; its thumbnail to the first only.
        let given = plan.outcomes(["/1.jpg": "thumb1", "/2.jpg": "thumb2", "/3.jpg": "thumb3"]) { _ in "none" }
        #expect(given.map { "\($0.campaignID)=\($0.outcome)" } == ["a=thumb1", "b=thumb2", "c=none", "d=thumb3"])
    }

    @Test func aRefusedPictureIsFetchedAgainWhenItChangedOrIsCached() {
        let known: [Campaign.ID: SyncPlan.Known] = ["a": .init(imageKey: "/old.jpg", refused: true),
                                               "b": .init(imageKey: "/same.jpg", refused: true)]
        let plan = SyncPlan(campaigns: [campaign("a", "x.test/new.jpg"), campaign("b", "x.test/same.jpg")],
                            key: { $0.path }, known: known, isCached: { $0 == "/same.jpg" },
                            hasThumbnail: { _ in true }, isUnanswered: { _ in false })
        #expect(plan.downloads.map(\.key) == ["/new.jpg"])
        #expect(plan.cached.map(\.picture.key) == ["/same.jpg"] && plan.cached.first?.needsThumbnail == false)
    }
}
