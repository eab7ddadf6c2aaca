import FoundationEssentials
import SplashCore

extension ShowRecord {
    /// The show a row of the `shows` view holds (`CampaignStore.showColumns`); one that has
    /// not ended yet is `unended` (`interrupted` for proof of play, `onScreen` for the
    /// operator view). Nil for a row without its id, campaign or time; an end or a medium
    /// no version of the ledger writes is an error naming its column (`StoredValue`).
    init?(shownRow row: SQLiteDatabase.Row, unended: ShowEnd) throws {
        guard let id = try row["id"].int, let campaign = try row["campaign_id"].text, let shown = try row["shown_at"].real else {
            return nil
        }
        self.init(row: id, showID: try row["show_id"].text ?? "", campaignID: Campaign.ID(campaign),
                  shownAt: Date(timeIntervalSince1970: shown), endedBy: try row.stored(ShowEnd.self, "ended_by") ?? unended,
                  seconds: max(0, (try row["ended_at"].real ?? shown) - shown),
                  media: try row.stored(MediaKind.self, "media") ?? .picture)
    }
}
