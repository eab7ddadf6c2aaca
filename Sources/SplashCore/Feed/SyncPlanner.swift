import FoundationEssentials

/// What one sync does, in order, decided from what is known before each step: pure, so
/// that the network process only carries the steps out (`FeedSync`, its interpreter) and
/// tells the planner what each came to.
///
/// A sync whose folders cannot be written ends before anything is fetched. Otherwise the
/// feed is asked for conditionally, with the validators stored — none when it was last
/// applied for other device groups, so that it is read in full for the groups the device
/// is in now. Unchanged (a 304, or a file as it was), the catalog is confirmed and the
/// pictures still missing are fetched; changed, the document is decoded, its pictures
/// planned (`SyncPlan`) and fetched, and it is applied, then the cache is trimmed to its
/// cap. Either way the pictures for portrait screens and the clips follow, then the cached
/// files due are revalidated — all of them when the feed's content changed. A step that
/// fails with the report of its own ends the sync.
public struct SyncPlanner: Equatable, Sendable {
    /// What the store knows of the feed before the sync.
    public struct Known: Equatable, Sendable {
        /// The validators the feed last came with.
        public var etag: String?
        public var lastModified: String?
        /// The fingerprint of the feed's content when it was last applied.
        public var contentHash: String?
        /// The feed was last applied for device groups other than the device's now.
        public var groupsChanged: Bool

        /// What the store said of the feed.
        public init(etag: String?, lastModified: String?, contentHash: String?, groupsChanged: Bool) {
            self.etag = etag
            self.lastModified = lastModified
            self.contentHash = contentHash
            self.groupsChanged = groupsChanged
        }
    }

    /// One thing for the network process to do.
    public enum Step: Equatable, Sendable {
        /// Look whether the data and cache folders can be written.
        case checkFolders
        /// Read what the store knows of the feed.
        case readFeedState
        /// Ask for the feed, conditionally when validators are given.
        case fetchFeed(etag: String?, lastModified: String?)
        /// The feed is unchanged: confirm the catalog and fetch the pictures still missing.
        case confirmUnchanged
        /// The feed changed: decode it, plan and fetch its pictures, and apply it.
        case takeDocument
        /// Trim the cache to its cap.
        case evict
        /// Fetch the pictures for portrait screens still missing.
        case fetchPortraits
        /// Fetch the clips still missing.
        case fetchVideos
        /// Ask again for the cached files that are due; all of them when the feed changed.
        case revalidate(feedChanged: Bool)
        /// The sync is over: its report is what the steps made.
        case finish
    }

    /// What a step came to.
    public enum Outcome: Equatable, Sendable {
        /// The step was done; the next follows.
        case done
        /// The store's knowledge of the feed (`readFeedState`).
        case feedState(Known)
        /// The feed is as it was (`fetchFeed`).
        case notModified
        /// The feed came, with this fingerprint of its content (`fetchFeed`).
        case fetched(contentHash: String)
        /// The step failed, and its report ends the sync.
        case failed
    }

    private var known: Known?
    private var queue: [Step] = []

    /// A sync not begun.
    public init() {}

    /// The first step.
    public mutating func start() -> Step {
        queue = [.readFeedState]
        return .checkFolders
    }

    /// The step after one that came to `outcome`.
    public mutating func next(after outcome: Outcome) -> Step {
        switch outcome {
        case .failed:
            queue = []
            return .finish
        case .feedState(let known):
            self.known = known
            let keep = !known.groupsChanged
            queue = []
            return .fetchFeed(etag: keep ? known.etag : nil, lastModified: keep ? known.lastModified : nil)
        case .notModified:
            queue = [.fetchPortraits, .fetchVideos, .revalidate(feedChanged: false), .finish]
            return .confirmUnchanged
        case .fetched(let hash):
            let changed = hash != known?.contentHash
            queue = [.evict, .fetchPortraits, .fetchVideos, .revalidate(feedChanged: changed), .finish]
            return .takeDocument
        case .done:
            guard !queue.isEmpty else { return .finish }
            return queue.removeFirst()
        }
    }
}
