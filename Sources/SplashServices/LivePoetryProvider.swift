import Foundation
import SplashCore

/// The live poetry provider: a poem from `poetry-url` (the jinrishici v1 shape) and a
/// picture from `poetry-image-url`, fetched with the product's limits on a background
/// queue. Its timeline has one entry and reloads after the refresh period.
public final class LivePoetryProvider: TimelineProvider {
    public static let poemLimit = 64 * 1024

    public let poemURL: URL
    public let imageURL: URL?
    public let refresh: TimeInterval
    let fetcher: Fetcher
    private let queue = SerialWorker(name: "splashboard.poetry")

    public init(poemURL: URL, imageURL: URL?, refresh: TimeInterval, fetcher: Fetcher = Fetcher()) {
        self.poemURL = poemURL
        self.imageURL = imageURL
        self.refresh = refresh
        self.fetcher = fetcher
    }

    public func placeholder() -> PoetryEntry { .placeholder }

    public func snapshot(at date: Date) -> PoetryEntry { .placeholder }

    public func timeline(at date: Date, completion: @escaping (Result<Timeline<PoetryEntry>, Error>) -> Void) {
        queue.async { [self] in
            do {
                let (_, data) = try fetcher.fetchData(poemURL, limit: Self.poemLimit)
                let entry = try Poem.decode(data).entry(source: .timeline, imageURL: imageURL)
                let timeline = Timeline(items: [.init(date: date, entry: entry)],
                                        policy: .after(date.addingTimeInterval(refresh)))
                completion(.success(timeline))
            } catch {
                completion(.failure(error))
            }
        }
    }
}

/// Fetches poem pictures into the image cache, each under a key of its own (a picture
/// URL often answers with a new picture every time), removing the one it replaces.
public final class PoetryPictures {
    let downloader: ImageDownloader
    let cache: ImageCache
    private let queue = SerialWorker(name: "splashboard.poetry-pictures")
    private var current: String?

    public init(cache: ImageCache, fetcher: Fetcher = Fetcher(), current: String? = nil) {
        self.cache = cache
        downloader = ImageDownloader(cache: cache, fetcher: fetcher)
        self.current = current
    }

    /// Fetches `url`; `completion` gets the cached file, or nil with the reason.
    public func load(_ url: URL, completion: @escaping (String?, String?) -> Void) {
        queue.async { [self] in
            let key = SHA256.hex("poetry:\(url.absoluteString)#\(UUID().uuidString)")
            switch downloader.download(url, as: key) {
            case .cached(let path, _):
                if let old = current, old != path { unlink(old) }
                current = path
                completion(path, nil)
            case .refused(let reason), .unavailable(let reason):
                completion(nil, reason)
            case .noRoom:
                completion(nil, ImageCache.fullMessage)
            }
        }
    }
}
