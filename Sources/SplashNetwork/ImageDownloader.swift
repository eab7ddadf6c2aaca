import Foundation
import SplashPictures
import SplashServices
import SplashCore
import SplashStorage

/// Fetches one picture into the cache under the picture limits: refused early when its
/// first bytes are not JPEG, PNG or WebP, validated whole before it takes its final name.
public struct ImageDownloader {
    /// The largest picture fetched, in bytes (20 MiB).
    public static let imageLimit = 20 << 20
    /// Held while a downloaded picture is decoded to check it.
    static let checking = NSLock()

    /// What became of one picture.
    public enum Outcome: Equatable {
        /// Cached and valid, with its thumbnail.
        case cached(path: String, thumbnail: [UInt8])
        /// Refused for good (wrong kind, too large, cut short, undecodable), with the reason.
        case refused(String)
        /// Not available this time (network, server error); worth trying again later.
        case unavailable(String)
        /// Not cached for want of room in the cache (`cache-max-mb`); tried again when
        /// room is made.
        case noRoom
    }

    let cache: ImageCache
    let fetcher: Fetcher

    /// Downloads into `cache` through `fetcher`.
    public init(cache: ImageCache, fetcher: Fetcher) {
        self.cache = cache
        self.fetcher = fetcher
    }

    /// Downloads `url` and caches it under `key`, taking at most `room` bytes of the cache
    /// (a picture that would not fit is stopped and is not cached: tried again later).
    public func download(_ url: URL, as key: String, room: Int = ImageDownloader.imageLimit) -> Outcome {
        let partial: ImageCache.PartialFile
        do {
            partial = try cache.beginWrite()
        } catch {
            return .unavailable(error.localizedDescription)
        }
        do {
            _ = try fetcher.fetch(url, limit: min(room, Self.imageLimit), inspect: Self.refuseEarly, sink: partial.write)
            // Downloads run side by side; decoding to check them, one at a time (memory).
            Self.checking.lock()
            defer { Self.checking.unlock() }
            let checked = try ImageValidator.check(partial.path)
            try cache.commit(partial, as: key)
            return .cached(path: cache.path(forKey: key), thumbnail: checked.thumbnail)
        } catch let error as ImageError {
            cache.discard(partial)
            return .refused(error.localizedDescription)
        } catch let error as FetchError {
            cache.discard(partial)
            if case .tooLarge = error {
                // Over the cache's room rather than the picture limit: not the picture's fault.
                if room < Self.imageLimit { return .noRoom }
                return .refused(error.localizedDescription)
            }
            return .unavailable(error.localizedDescription)
        } catch {
            cache.discard(partial)
            return .unavailable(error.localizedDescription)
        }
    }

    /// Stops a download at its first bytes when they are not a JPEG, PNG or WebP, or a PNG
    /// or WebP whose header already declares too many pixels (or, a WebP, animation).
    static func refuseEarly(_ head: [UInt8]) throws {
        guard let kind = ImageHeader.kind(of: head) else { throw ImageHeader.refusal(for: head) }
        if kind == .png, head.count >= 24 { _ = try ImageHeader.parse(head) }
        if kind == .webp, head.count >= 30 { _ = try ImageHeader.parse(head) }
    }
}
