import Glibc
import FoundationEssentials
import SplashServices
import SplashCore
import SplashStorage

/// Fetches poem pictures into the image cache, each under a key of its own (a picture
/// URL often answers with a new picture every time), removing the one it replaces.
public final class PoetryPictures {
    let downloader: ImageDownloader
    let cache: ImageCache
    private let queue = SerialWorker(name: "splashboard.poetry-pictures")
    private var current: String?

    /// Pictures into `cache` through `fetcher`; `current` is the cached picture the next one
    /// replaces, if any.
    public init(cache: ImageCache, fetcher: Fetcher = Fetcher(), current: String? = nil) {
        self.cache = cache
        downloader = ImageDownloader(cache: cache, fetcher: fetcher)
        self.current = current
    }

    /// Fetches `url`; `completion` gets the cached file, or why there is none.
    public func load(_ url: URL, completion: @escaping (PictureFetch) -> Void) {
        queue.async { [self] in
            let key = SHA256.hex("poetry:\(url.absoluteString)#\(UUID().uuidString)")
            switch downloader.download(url, as: key) {
            case .cached(let path, _, _):
                if let old = current, old != path { unlink(old) }
                current = path
                completion(.cached(path: path))
            case .refused(let reason), .unavailable(let reason):
                completion(.missing(reason: reason))
            case .noRoom:
                completion(.missing(reason: ImageCache.fullMessage))
            }
        }
    }
}
