import CSQLite
import FoundationEssentials
import SplashCore

/// The campaigns as they are stored, and as the kiosk's catalog reads them.
extension CampaignStore {
    /// How many campaigns are active (in the feed applied last).
    public func activeCount() throws -> Int {
        Int(try db.query("SELECT COUNT(*) FROM campaigns WHERE active = 1").first?.first?.int ?? 0)
    }

    /// The pictures of active campaigns not known to be refused (or, `includingRefused`,
    /// those too), each image key once.
    public func activePictures(includingRefused: Bool = false, portraits: Bool = true) throws -> [(key: String, url: URL)] {
        let mine = forThisDevice
        return try db.rows("""
        SELECT image_key, MIN(pic_url) AS pic_url FROM campaigns
        WHERE active = 1 AND (image_problem IS NULL OR ?) AND \(mine.sql) GROUP BY image_key
        UNION
        SELECT portrait_key, MIN(portrait_url) FROM campaigns
        WHERE ? AND active = 1 AND portrait_key IS NOT NULL AND portrait_problem IS NULL AND \(mine.sql) GROUP BY portrait_key
        """, [.int(includingRefused ? 1 : 0)] + mine.values + [.int(portraits ? 1 : 0)] + mine.values)
            .compactMap { row in
                guard let key = try row["image_key"].text, let url = try row["pic_url"].text.flatMap(URL.init(string:)) else {
                    return nil
                }
                return (key, url)
            }
    }

    /// The stored thumbnail of the picture with `key`.
    public func thumbnail(forImageKey key: String) throws -> [UInt8]? {
        try db.query("SELECT jpeg FROM thumbnails WHERE image_key = ?", [.text(key)]).first?.first?.blob
    }

    /// The active campaigns that show the picture with `key`.
    public func campaigns(withImageKey key: String) throws -> [Campaign.ID] {
        try db.query("SELECT id FROM campaigns WHERE active = 1 AND image_key = ?", [.text(key)]).compactMap { $0[0].text.map { Campaign.ID($0) } }
    }

    /// A stored campaign with what is known about it.
    public struct StoredCampaign: Equatable {
        /// The campaign as the feed described it.
        public var campaign: Campaign
        /// Whether it is in the feed applied last (one that left it is kept a while, inactive).
        public var active: Bool
        /// Shows recorded in the ledger.
        public var shows: Int
        /// Its picture's key in the image cache.
        public var imageKey: String
        /// Why its picture was refused, when it was.
        public var imageProblem: String?
        /// Why the picture is not cached yet, when a sync could not fetch it.
        public var imageWaiting: String?
        /// The thumbnail's JPEG bytes, when they were asked for.
        public var thumbnail: [UInt8]?
        /// Whether a thumbnail is stored (asked for or not).
        public var hasThumbnail: Bool
        /// When it was last shown, from the ledger.
        public var lastShownAt: Date? = nil
        /// What a sync found of its clip: its facts once probed, why it is not played, why
        /// it is not cached yet.
        public var videoFacts: VideoFacts? = nil
        public var videoProblem: String? = nil
        public var videoWaiting: String? = nil
        /// Its picture's animation, when it is an animated GIF that is played.
        public var motion: VideoFacts? = nil
        /// Why its picture for portrait screens was refused, when it was.
        public var portraitProblem: String? = nil
    }

    /// The picture each campaign of `ids` had when last stored (its cache key, and whether it
    /// was refused): what a sync needs to know of them, read for those ids alone, so that a
    /// sync's memory does not grow with the campaigns retired before.
    public func storedPictures(of ids: [Campaign.ID]) throws -> [Campaign.ID: (imageKey: String, refused: Bool)] {
        var found: [Campaign.ID: (imageKey: String, refused: Bool)] = [:]
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(ids.count, start + 500)])
            start += chunk.count
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let rows = try db.query("SELECT id, image_key, image_problem IS NOT NULL, pic_url FROM campaigns WHERE id IN (\(marks))",
                                    chunk.map { .id($0) })
            for row in rows {
                // A row from before keys were stored is keyed by its picture's URL, as it was then.
                guard let id = row[0].text,
                      let key = row[1].text ?? row[3].text.flatMap(URL.init(string:)).map(ImageCache.key(for:)) else { continue }
                found[Campaign.ID(id)] = (key, row[2] == .int(1))
            }
        }
        return found
    }

    /// All stored campaigns, active ones in feed order first; thumbnails only when asked
    /// for (they are the bulk of the rows).
    public func campaigns(includeInactive: Bool = false, thumbnails: Bool = true) throws -> [StoredCampaign] {
        // One pass over the ledger gives both the counts and the last shows.
        let history = try showHistory()
        let rows = try db.rows("""
        SELECT \(Self.feedColumns.map { "c." + $0 }.joined(separator: ", ")), c.active, c.image_problem,
               c.video_facts, c.video_problem, c.video_waiting, c.portrait_problem,
               \(thumbnails ? "t.jpeg" : "NULL") AS thumbnail,
               t.image_key IS NOT NULL AS has_thumbnail, t.motion
        FROM campaigns c LEFT JOIN thumbnails t ON t.image_key = c.image_key
        \(includeInactive ? "" : "WHERE c.active = 1") ORDER BY c.active DESC, c.position
        """)
        // Every cap of the feed is applied again to what is read: the network process wrote
        // these rows, and the display trusts it no more than the network.
        return try rows.compactMap { r in
            guard let campaign = try Campaign(storedRow: r) else { return nil }
            let (id, pic) = (campaign.id, campaign.picURL)
            return StoredCampaign(campaign: campaign, active: try r["active"].int == 1, shows: history[id]?.count ?? 0,
                                  imageKey: try r["image_key"].text ?? ImageCache.key(for: pic),
                                  imageProblem: try r["image_problem"].text, imageWaiting: try r["image_waiting"].text,
                                  thumbnail: try r["thumbnail"].blob,
                                  hasThumbnail: try r["has_thumbnail"].int == 1, lastShownAt: history[id]?.last,
                                  videoFacts: try r["video_facts"].text.flatMap(VideoFacts.from(json:)),
                                  videoProblem: try r["video_problem"].text.map { String($0.prefix(FeedDocument.maxDetail)) },
                                  videoWaiting: try r["video_waiting"].text.map { String($0.prefix(FeedDocument.maxDetail)) },
                                  motion: try r["motion"].text.flatMap(VideoFacts.from(json:)),
                                  portraitProblem: try r["portrait_problem"].text)
        }
    }

    /// The stored thumbnails of these campaigns, by campaign id (the operator view's page:
    /// a library of thousands is never read whole): a campaign whose clip plays shows its
    /// clip's first frame, the others their picture.
    public func thumbnails(ofCampaigns ids: [Campaign.ID]) throws -> [Campaign.ID: [UInt8]] {
        var found: [Campaign.ID: [UInt8]] = [:]
        for id in ids {
            let clip = try db.rows("SELECT video_url FROM campaigns WHERE id = ? AND video_facts IS NOT NULL", [.id(id)])
            if let url = try clip.first?["video_url"].text.flatMap(URL.init(string:)),
               let jpeg = try db.query("SELECT jpeg FROM thumbnails WHERE image_key = ?",
                                       [.text(ImageCache.key(for: url))]).first?.first?.blob {
                found[id] = jpeg
                continue
            }
            let rows = try db.rows("""
            SELECT t.jpeg FROM campaigns c JOIN thumbnails t ON t.image_key = c.image_key WHERE c.id = ?
            """, [.id(id)])
            if let jpeg = try rows.first?["jpeg"].blob { found[id] = jpeg }
        }
        return found
    }

    /// The active campaigns as the kiosk sees them (`CatalogEntry.judged`), with what of
    /// their pictures and clips is in `cache`.
    public func catalog(cache: ImageCache) throws -> [CatalogEntry] {
        // Many campaigns share a picture: each file is looked for once per catalog.
        var present: [String: Bool] = [:]
        func cached(_ key: String) -> Bool {
            if let known = present[key] { return known }
            let found = cache.contains(key: key)
            present[key] = found
            return found
        }
        return try campaigns(thumbnails: false).map { stored in
            let pictureKey = stored.imageKey
            let clipKey = stored.campaign.videoURL.map(ImageCache.key(for:))
            let portraitKey = stored.portraitProblem == nil ? stored.campaign.portraitURL.map(ImageCache.key(for:)) : nil
            // Only campaigns with a daily cap, shown before, need their recent shows (up to the cap).
            var recent: [Date] = []
            if stored.lastShownAt != nil, let cap = stored.campaign.maxPerDay, cap > 0 {
                recent = try recentShows(of: stored.campaign.id, limit: min(cap, CatalogEntry.recentLimit))
            }
            return CatalogEntry.judged(
                campaign: stored.campaign, shows: stored.shows, lastShownAt: stored.lastShownAt, recentShows: recent,
                cachedPicture: ImageCache.isCacheName(pictureKey) && cached(pictureKey)
                    ? cache.path(forKey: pictureKey) : nil,
                pictureRefused: stored.imageProblem, pictureWaiting: stored.imageWaiting,
                cachedClip: clipKey.flatMap { cached($0) ? cache.path(forKey: $0) : nil },
                clipFacts: stored.videoFacts, clipRefused: stored.videoProblem, clipWaiting: stored.videoWaiting,
                motion: stored.motion,
                cachedPortrait: portraitKey.flatMap { cached($0) ? cache.path(forKey: $0) : nil })
        }
    }

    /// A list as stored: a JSON array of strings (no separator that an item could hold);
    /// nil for none.
    static func encodeList(_ items: [String]) -> String? {
        guard !items.isEmpty, let data = Optional(Data(JSONValue(items).encoded().utf8)) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A stored list; what is not a JSON array of strings reads as none.
    static func decodeList(_ text: String?) -> [String] {
        guard let text, let items = try? JSONReader.value(Data(text.utf8)) as? [Any] else { return [] }
        return items.compactMap { $0 as? String }
    }
}
