import FoundationEssentials
import SplashCore

/// Campaigns' pictures for portrait screens (`picUrlPortrait`): which ones active campaigns
/// name, and why one was refused (its campaign's picUrl is then shown on portrait screens).
extension CampaignStore {
    /// A picture for portrait screens an active campaign names.
    public struct StoredPortrait: Equatable {
        public var campaignID: Campaign.ID
        public var url: URL
        public var problem: String?
    }

    /// The pictures for portrait screens of active campaigns.
    public func activePortraits() throws -> [StoredPortrait] {
        let mine = forThisDevice
        return try db.rows("SELECT id, portrait_url, portrait_problem FROM campaigns WHERE active = 1 AND portrait_url IS NOT NULL "
                           + "AND \(mine.sql)", mine.values)
            .compactMap { row in
                guard let id = try row["id"].text, let url = try row["portrait_url"].text.flatMap(URL.init(string:)) else { return nil }
                return StoredPortrait(campaignID: Campaign.ID(id), url: url, problem: try row["portrait_problem"].text)
            }
    }

    /// Notes why each campaign's picture for portrait screens was refused (nil: it is cached
    /// and good), by campaign id, in one transaction.
    public func notePortraitProblems(_ problems: [Campaign.ID: String?]) throws {
        guard !problems.isEmpty else { return }
        try db.transaction {
            for (id, problem) in problems {
                try db.execute("UPDATE campaigns SET portrait_problem = ? WHERE id = ?", [.optional(problem), .id(id)])
            }
        }
    }
}
