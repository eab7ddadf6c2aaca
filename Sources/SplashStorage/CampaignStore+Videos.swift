import CSQLite
import FoundationEssentials
import SplashCore

/// Campaigns' clips: what a sync found of each (its facts, why it is not played, why it is
/// not cached yet), and the first frame's thumbnail, kept like a picture's under the clip's
/// cache key.
extension CampaignStore {
    /// What a sync found of a clip.
    public enum VideoStatus: Equatable {
        /// Cached and playable, with its facts and its first frame's thumbnail.
        case cached(VideoFacts, thumbnail: [UInt8]?)
        /// Not played here, and why: the poster is shown.
        case refused(ClipRefusal)
        /// Not cached yet, and why.
        case waiting(String)
    }

    /// A clip an active campaign names, with what is stored of it.
    public struct StoredVideo: Equatable {
        public var campaignID: Campaign.ID
        public var url: URL
        public var facts: VideoFacts?
        public var problem: String?
        /// The `video-max-mb` it was refused for as too large; nil for any other refusal.
        public var refusedLimitMB: Int?
    }

    /// The clips of active campaigns (a partial index: a feed without clips costs a sync,
    /// a 304's included, next to nothing).
    public func activeVideos() throws -> [StoredVideo] {
        let mine = forThisDevice
        return try db.rows("SELECT id, video_url, video_facts, video_problem, video_refused_mb FROM campaigns WHERE active = 1 AND video_url IS NOT NULL "
                           + "AND \(mine.sql)", mine.values)
            .compactMap { row in
                guard let id = try row["id"].text, let url = try row["video_url"].text.flatMap(URL.init(string:)) else { return nil }
                return StoredVideo(campaignID: Campaign.ID(id), url: url, facts: try row["video_facts"].text.flatMap(VideoFacts.from(json:)),
                                   problem: try row["video_problem"].text,
                                   refusedLimitMB: try row["video_refused_mb"].int.map { Int(clamping: $0) })
            }
    }

    /// Notes what a sync found of each campaign's clip (by campaign id), in one transaction.
    public func updateVideos(_ statuses: [Campaign.ID: VideoStatus], keys: [Campaign.ID: String]) throws {
        guard !statuses.isEmpty else { return }
        try db.transaction {
            for (id, status) in statuses {
                switch status {
                case let .cached(facts, thumbnail):
                    try db.execute("UPDATE campaigns SET video_facts = ?, video_problem = NULL, video_refused_mb = NULL, video_waiting = NULL WHERE id = ?",
                                   [.text(facts.json), .id(id)])
                    if let thumbnail, let key = keys[id] {
                        try db.execute("INSERT OR REPLACE INTO thumbnails (image_key, jpeg) VALUES (?, ?)",
                                       [.text(key), .blob(thumbnail)])
                    }
                case .refused(let refusal):
                    try db.execute("UPDATE campaigns SET video_facts = NULL, video_problem = ?, video_refused_mb = ?, video_waiting = NULL "
                                   + "WHERE id = ?", [.text(refusal.message), refusal.refusedLimitMB.map { .int(Int64($0)) } ?? .null, .id(id)])
                case .waiting(let reason):
                    try db.execute("UPDATE campaigns SET video_waiting = ? WHERE id = ?", [.text(reason), .id(id)])
                }
            }
        }
    }
}
