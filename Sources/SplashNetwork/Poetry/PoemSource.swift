import FoundationEssentials
import SplashServices
import SplashCore

/// Poems from `poetry-url` (the jinrishici v1 shape), fetched with the product's limits.
/// The display makes the panel's timeline of each (`LinkedPoetry`).
public struct PoemSource {
    /// The largest answer read for a poem, in bytes (64 KiB).
    public static let poemLimit = 64 * 1024

    /// Where poems are fetched from (`poetry-url`).
    public let url: URL
    let fetcher: Fetcher

    /// Poems from `url`, fetched through `fetcher`.
    public init(url: URL, fetcher: Fetcher = Fetcher()) {
        self.url = url
        self.fetcher = fetcher
    }

    /// Fetches and reads one poem.
    public func fetch() throws -> Poem {
        let (_, data) = try fetcher.fetchData(url, limit: Self.poemLimit)
        return try Poem.decode(data)
    }
}
