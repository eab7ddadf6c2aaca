import Foundation
import Testing
@testable import SplashCore

/// When a cached picture or clip is asked for again: its server's `Cache-Control`, the feed,
/// `revalidate-after` and a sync run by hand.
@Suite struct FileValidatorsTests {
    let fetched = Date(timeIntervalSince1970: 1_790_000_000)
    let hour: TimeInterval = 3600

    func due(_ v: FileValidators?, after seconds: TimeInterval, checked: TimeInterval? = nil, feedChanged: Bool = false,
             byHand: Bool = false) -> Bool {
        FileValidators.isDue(v, lastChecked: checked.map { fetched.addingTimeInterval($0) }, now: fetched.addingTimeInterval(seconds),
                             every: hour, feedChanged: feedChanged, byHand: byHand)
    }

    @Test func cacheControlIsReadForMaxAgeAndNoCache() {
        let plain = FileValidators(etag: "\"a\"", lastModified: nil, cacheControl: nil, fetchedAt: fetched)
        #expect(plain.maxAge == nil && !plain.noCache && plain.canAsk)
        #expect(FileValidators(etag: nil, lastModified: nil, cacheControl: "public, max-age=600", fetchedAt: fetched).maxAge == 600)
        #expect(FileValidators(etag: nil, lastModified: nil, cacheControl: "s-maxage=\"30\"", fetchedAt: fetched).maxAge == 30)
        #expect(FileValidators(etag: nil, lastModified: nil, cacheControl: "max-age=-5, max-age=x", fetchedAt: fetched).maxAge == nil)
        #expect(FileValidators(etag: nil, lastModified: nil, cacheControl: "No-Cache", fetchedAt: fetched).noCache)
        #expect(FileValidators(etag: nil, lastModified: nil, cacheControl: "private, no-store", fetchedAt: fetched).noCache)
        #expect(!FileValidators(etag: nil, lastModified: nil, cacheControl: "max-age=5", fetchedAt: fetched).canAsk)
    }

    @Test func withoutMaxAgeAFileIsAskedForWhenTheFeedChangedOrRevalidateAfterItWasLastChecked() {
        let v = FileValidators(etag: "\"a\"", lastModified: nil, fetchedAt: fetched)
        #expect(!due(v, after: hour - 1))
        #expect(due(v, after: hour))
        #expect(due(v, after: 10, feedChanged: true))
        // Found unchanged half an hour in: the hour counts from then.
        #expect(!due(v, after: hour + 10, checked: 1800))
        #expect(due(v, after: hour + 1800, checked: 1800))
        // By hand, always; a clock set back is no reason to trust it longer.
        #expect(due(v, after: 0, byHand: true))
        #expect(due(v, after: -60))
    }

    @Test func theServersMaxAgeAndNoCacheDecideAlone() {
        let short = FileValidators(etag: "\"a\"", lastModified: nil, maxAge: 60, fetchedAt: fetched)
        #expect(!due(short, after: 59, feedChanged: true))
        #expect(due(short, after: 60))
        let long = FileValidators(etag: "\"a\"", lastModified: nil, maxAge: 86_400, fetchedAt: fetched)
        #expect(!due(long, after: 2 * hour, feedChanged: true))
        #expect(due(long, after: 2 * hour, byHand: true))
        let noCache = FileValidators(etag: "\"a\"", lastModified: nil, maxAge: 600, noCache: true, fetchedAt: fetched)
        #expect(due(noCache, after: 1))
    }

    @Test func aFileCachedBeforeValidatorsWereKeptIsAskedForOnce() {
        #expect(due(nil, after: 0))
        #expect(!due(nil, after: 10, checked: 5))
    }
}
