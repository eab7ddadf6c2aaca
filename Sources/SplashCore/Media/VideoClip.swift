/// A campaign's clip as the kiosk plays it: the cached file and what is known of it.
public struct VideoClip: Equatable, Hashable, Sendable {
    /// The validated file in the cache.
    public var path: String
    /// Its container, codec, size, rate and length.
    public var facts: VideoFacts

    /// A clip at `path`.
    public init(path: String, facts: VideoFacts) {
        self.path = path
        self.facts = facts
    }
}
