import FoundationEssentials

/// Cache keys (and URL text) of campaign pictures, worked out once per picture: a feed
/// of thousands of campaigns often shares a handful of pictures, and a key is a SHA-256.
public final class PictureKeys {
    private var known: [URL: (key: String, text: String)] = [:]

    /// Keys with none worked out yet.
    public init() {}

    /// The cache key of `url` and its absolute text.
    public func of(_ url: URL) -> (key: String, text: String) {
        if let found = known[url] { return found }
        let text = url.absoluteString
        let entry = (ImageCache.key(for: url), text)
        known[url] = entry
        return entry
    }
}
