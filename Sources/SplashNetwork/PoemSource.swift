import Foundation
import SplashServices
import SplashCore

/// Poems from `poetry-url` (the jinrishici v1 shape), fetched with the product's limits.
/// The display makes the panel's timeline of each (`LinkedPoetry`).
public struct PoemSource {
    public static let poemLimit = 64 * 1024

    public let url: URL
    let fetcher: Fetcher

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
