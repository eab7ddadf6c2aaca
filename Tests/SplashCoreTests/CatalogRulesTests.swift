import Foundation
import Testing
@testable import SplashCore

/// The catalog's own rules, on its own state alone: what a catalog read elsewhere, a
/// picture that will not open and one that will not decode come to.
@Suite struct CatalogRulesTests {
    @Test func theCatalogsRulesRunOnItsOwnState() {
        var catalog = CatalogState()
        CatalogRules.replace(&catalog, with: [entry("a", shows: 3, image: "/img/a.jpg"), entry("b", image: "/img/b.jpg")],
                             message: "hello")
        #expect(catalog.entries.map(\.shows) == [3, 0] && catalog.feedMessage == "hello")

        // A catalog read before the last shows never lowers a count.
        CatalogRules.replace(&catalog, with: [entry("a", shows: 1, image: "/img/a.jpg"), entry("b", shows: 2, image: "/img/b.jpg")],
                             message: nil)
        #expect(catalog.entries.map(\.shows) == [3, 2] && catalog.feedMessage == nil)

        // A picture that has gone from the cache since is lost: to be fetched again.
        #expect(!CatalogRules.changed(&catalog, to: [entry("a", shows: 3, image: "/img/a.jpg"), entry("b", shows: 2, image: "/img/b.jpg")],
                                      message: nil))
        #expect(CatalogRules.changed(&catalog, to: [entry("a", shows: 3, image: nil), entry("b", shows: 2, image: "/img/b.jpg")],
                                     message: nil))

        // A picture gone on its splash waits for its file, said once; a broken one is refused.
        #expect(CatalogRules.unusable(&catalog, path: "/img/b.jpg", .gone)?.contains("it is fetched again") == true)
        #expect(catalog.entries[1].picture == .waiting(CatalogEntry.notCached))
        #expect(CatalogRules.unusable(&catalog, path: "/img/b.jpg", .gone) == nil)

        // One that fails on the detail screen is said and keeps its turns; on its splash, refused.
        CatalogRules.replace(&catalog, with: [entry("c", image: "/img/c.jpg")], message: nil)
        #expect(CatalogRules.failed(&catalog, path: "/img/c.jpg", reason: "broken", onSplash: false) != nil)
        #expect(catalog.entries[0].picture == .cached(path: "/img/c.jpg"))
        #expect(CatalogRules.failed(&catalog, path: "/img/c.jpg", reason: "broken", onSplash: true) == nil)
        #expect(catalog.entries[0].picture == .refused("broken", path: "/img/c.jpg"))
        #expect(catalog.failedImages == ["/img/b.jpg", "/img/c.jpg"])
    }
}
