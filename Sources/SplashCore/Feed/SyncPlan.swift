import FoundationEssentials

/// What one sync does with its feed's pictures, decided from what is known before any is
/// fetched: which campaigns get a picture's outcome, which pictures are already cached
/// (thumbnailed again when theirs is missing), which are downloaded — those on hosts that
/// did not answer at an earlier sync last, so that silent hosts cannot take every sync's
/// time — and which are left alone (refused before, the same picture, still not cached).
/// A picture many campaigns share is planned once. Pure: the network process fetches.
public struct SyncPlan: Sendable {
    /// A picture to fetch: its cache key and where it is.
    public struct Picture: Equatable, Sendable {
        /// Its entry in the picture cache.
        public var key: String
        /// Where it is fetched from.
        public var url: URL

        /// A picture of this key at this URL.
        public init(key: String, url: URL) {
            self.key = key
            self.url = url
        }
    }

    /// What is known of a campaign from earlier syncs.
    public struct Known: Equatable, Sendable {
        /// Its picture's cache key then.
        public var imageKey: String
        /// Whether that picture was refused.
        public var refused: Bool

        /// What an earlier sync left of a campaign.
        public init(imageKey: String, refused: Bool) {
            self.imageKey = imageKey
            self.refused = refused
        }
    }

    /// Each campaign that gets its picture's outcome, with the picture's key, in feed order.
    public private(set) var noted: [(campaignID: Campaign.ID, key: String)] = []
    /// Pictures already in the cache, and whether each needs its thumbnail made again.
    public private(set) var cached: [(picture: Picture, needsThumbnail: Bool)] = []
    /// Pictures to download, in the order they are fetched.
    public private(set) var downloads: [Picture] = []

    /// The plan for `campaigns`. `key` names a picture's cache entry; `known`, by campaign
    /// id, what earlier syncs left; `isCached`, `hasThumbnail` and `isUnanswered` what the
    /// cache, the database and this process know now.
    public init(campaigns: [Campaign], key: (URL) -> String, known: [Campaign.ID: Known], isCached: (String) -> Bool,
                hasThumbnail: (String) -> Bool, isUnanswered: (URL) -> Bool) {
        var planned = Set<String>()
        var later: [Picture] = []
        for campaign in campaigns {
            let key = key(campaign.picURL)
            if let old = known[campaign.id], old.imageKey == key, old.refused, !isCached(key) {
                continue  // refused before, same picture: not fetched again
            }
            noted.append((campaign.id, key))
            guard planned.insert(key).inserted else { continue }
            let picture = Picture(key: key, url: campaign.picURL)
            if isCached(key) {
                cached.append((picture, !hasThumbnail(key)))
            } else if isUnanswered(campaign.picURL) {
                later.append(picture)
            } else {
                downloads.append(picture)
            }
        }
        downloads += later
    }

    /// Each noted campaign with its picture's outcome, from the outcomes by key: a
    /// thumbnail is stored once per picture, so every campaign after the first of a key gets
    /// `withoutThumbnail` of it. Campaigns whose picture has no outcome are left out.
    public func outcomes<Outcome>(_ byKey: [String: Outcome], withoutThumbnail: (Outcome) -> Outcome)
        -> [(campaignID: Campaign.ID, outcome: Outcome)] {
        var given = Set<String>()
        return noted.compactMap { campaignID, key in
            guard let outcome = byKey[key] else { return nil }
            return (campaignID, given.insert(key).inserted ? outcome : withoutThumbnail(outcome))
        }
    }

}
