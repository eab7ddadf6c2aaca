import Foundation
import SplashCore

extension Campaign {
    /// The campaign a row of the `campaigns` table holds (`CampaignStore.feedColumns`),
    /// with every cap of the feed applied again: the network process wrote the row, and the
    /// display trusts it no more than the network. Nil for a row no feed could have made.
    init?(storedRow r: SQLiteDatabase.Row) {
        guard let id = r["id"].text, !id.isEmpty, id.count <= FeedDocument.maxID,
              let picText = r["pic_url"].text, TrackingURL.textProblem(picText) == nil,
              let pic = URL(string: picText) else { return nil }
        self.init(id: id, picURL: pic, showTime: max(0, Int(r["show_time"].int ?? 0)),
                  title: r["title"].text.map { String($0.prefix(FeedDocument.maxTitle)) },
                  detail: r["detail"].text.map { String($0.prefix(FeedDocument.maxDetail)) },
                  startAt: r["start_at"].date, endAt: r["end_at"].date,
                  updatedAt: r["updated_at"].date, position: Int(r["position"].int ?? 0))
        let sendable = { (list: String?) in
            Array(CampaignStore.decodeList(list).filter { TrackingURL.problem($0, campaign: id) == nil }
                .prefix(TrackingURL.perCampaign))
        }
        impressionURLs = sendable(r["impression_urls"].text)
        clickURLs = sendable(r["click_urls"].text)
        hours = (r["hours"].text ?? "").split(separator: ",").compactMap { DailyWindow(String($0)) }
        days = Set((r["days"].text ?? "").split(separator: ",").compactMap { Weekday(String($0)) })
        timeZone = r["time_zone"].text
        maxPerDay = r["max_per_day"].int.map { max(0, Int($0)) }
        minInterval = r["min_interval"].int.map { max(0, Int($0)) }
        priority = Int(r["priority"].int ?? 0)
        let seconds = Campaign.countdownRange
        countdown = r["countdown"].int.map { min(seconds.upperBound, max(seconds.lowerBound, Int($0))) }
        linkURL = r["link_url"].text.flatMap { $0.count <= Campaign.linkMaxLength && TrackingURL.textProblem($0) == nil ? URL(string: $0) : nil }
        videoURL = r["video_url"].text.flatMap { TrackingURL.textProblem($0) == nil ? URL(string: $0) : nil }
    }
}
