import Foundation
import Testing
@testable import SplashCore

/// What a sync does, in order, from what each step came to: no network, no store.
@Suite struct SyncPlannerTests {
    /// The steps a sync takes when each comes to `outcomes` in turn, from the first.
    func steps(_ outcomes: [SyncPlanner.Outcome]) -> [SyncPlanner.Step] {
        var planner = SyncPlanner()
        var steps = [planner.start()]
        for outcome in outcomes { steps.append(planner.next(after: outcome)) }
        return steps
    }

    let stored = SyncPlanner.Known(etag: "\"v1\"", lastModified: "Mon, 07 Dec 2026 00:00:00 GMT", contentHash: "abc-10",
                                   groupsChanged: false)

    @Test func anUnchangedFeedIsConfirmedThenPortraitsClipsAndWhatIsDue() {
        #expect(steps([.done, .feedState(stored), .notModified, .done, .done, .done, .done]) == [
            .checkFolders, .readFeedState, .fetchFeed(etag: "\"v1\"", lastModified: "Mon, 07 Dec 2026 00:00:00 GMT"),
            .confirmUnchanged, .fetchPortraits, .fetchVideos, .revalidate(feedChanged: false), .finish,
        ])
    }

    @Test func aChangedFeedIsAppliedAndTheCacheTrimmedBeforeTheRest() {
        // The same bytes again (a server without validators): nothing to revalidate for it.
        #expect(steps([.done, .feedState(stored), .fetched(contentHash: "abc-10"), .done, .done, .done, .done, .done]) == [
            .checkFolders, .readFeedState, .fetchFeed(etag: "\"v1\"", lastModified: "Mon, 07 Dec 2026 00:00:00 GMT"),
            .takeDocument, .evict, .fetchPortraits, .fetchVideos, .revalidate(feedChanged: false), .finish,
        ])
        // Another content: every cached file is asked for again.
        #expect(steps([.done, .feedState(stored), .fetched(contentHash: "def-12"), .done, .done, .done, .done])
                    .contains(.revalidate(feedChanged: true)))
    }

    @Test func aFeedLastAppliedForOtherGroupsIsReadInFull() {
        var moved = stored
        moved.groupsChanged = true
        #expect(steps([.done, .feedState(moved)]).last == .fetchFeed(etag: nil, lastModified: nil))
    }

    @Test func aFailedStepEndsTheSyncWithItsReport() {
        #expect(steps([.failed]) == [.checkFolders, .finish])
        #expect(steps([.done, .failed]) == [.checkFolders, .readFeedState, .finish])
        #expect(steps([.done, .feedState(stored), .failed]).last == .finish)
        #expect(steps([.done, .feedState(stored), .fetched(contentHash: "x"), .failed]).last == .finish)
    }
}
