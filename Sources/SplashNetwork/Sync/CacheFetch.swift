import FoundationEssentials
import SplashCore
import SplashStorage

/// A picture's or a clip's file fetched into a partial file of the cache, as both
/// downloaders do it: asked again with what is known of the cached one (`known`), it is
/// news only when the server sent it again and its bytes differ; the same file is
/// discarded and nothing is written.
enum CacheFetch {
    /// Fetches `url` into `partial` within `limit` bytes (`inspect` sees its first bytes);
    /// the validators it came with, or nil when it is the cached one unchanged (the partial
    /// discarded).
    static func changed(_ url: URL, into partial: ImageCache.PartialFile, as key: String, cache: ImageCache, fetcher: Fetcher,
                        known: FileValidators?, limit: Int, inspect: (([UInt8]) throws -> Void)?, at now: Date) throws -> FileValidators? {
        let result = try fetcher.fetch(url, etag: known?.etag, lastModified: known?.lastModified, limit: limit, inspect: inspect,
                                       sink: partial.write)
        guard case let .fetched(etag, lastModified, _, cacheControl) = result,
              // Only a file asked for again can be "the same": a plain download always is news.
              known == nil || !cache.holdsSame(partial, as: key) else {
            cache.discard(partial)
            return nil
        }
        return FileValidators(etag: etag, lastModified: lastModified, cacheControl: cacheControl, fetchedAt: now)
    }
}
