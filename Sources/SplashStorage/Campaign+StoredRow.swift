import FoundationEssentials
import SplashCore

extension Campaign {
    /// The campaign a row of the `campaigns` table holds (`CampaignStore.feedColumns`),
    /// with every cap of the feed applied again: the network process wrote the row, and the
    /// display trusts it no more than the network. Nil for a row no feed could have made.
    init?(storedRow r: SQLiteDatabase.Row) throws {
        guard let id = try r["id"].text, !id.isEmpty, id.count <= FeedDocument.maxID,
              let picText = try r["pic_url"].text, TrackingURL.textProblem(picText) == nil,
              let pic = URL(string: picText) else { return nil }
        self.init(id: Campaign.ID(id), picURL: pic, showLimit: max(0, Int(try r["show_time"].int ?? 0)),
                  title: try r["title"].text.map { String($0.prefix(FeedDocument.maxTitle)) },
                  detail: try r["detail"].text.map { String($0.prefix(FeedDocument.maxDetail)) },
                  startAt: try r["start_at"].date, endAt: try r["end_at"].date,
                  updatedAt: try r["updated_at"].date, position: Int(try r["position"].int ?? 0))
        let sendable = { (list: String?) in
            Array(CampaignStore.decodeList(list).filter { TrackingURL.problem($0, campaign: id) == nil }
                .prefix(TrackingURL.perCampaign))
        }
        impressionURLs = sendable(try r["impression_urls"].text)
        clickURLs = sendable(try r["click_urls"].text)
        hours = (try r["hours"].text ?? "").split(separator: ",").compactMap { DailyWindow(String($0)) }
        days = Set((try r["days"].text ?? "").split(separator: ",").compactMap { Weekday(String($0)) })
        timeZone = try r["time_zone"].text
        // Held to the ranges a feed's values are read in (`Campaign`'s).
        func held(_ value: Int64, _ range: ClosedRange<Int>) -> Int { min(range.upperBound, max(range.lowerBound, Int(value))) }
        maxPerDay = try r["max_per_day"].int.map { held($0, Campaign.maxPerDayRange) }
        minInterval = try r["min_interval"].int.map { held($0, Campaign.minIntervalRange) }
        priority = held(try r["priority"].int ?? 0, Campaign.priorityRange)
        countdown = try r["countdown"].int.map { held($0, Campaign.countdownRange) }
        linkURL = try r["link_url"].text.flatMap { $0.count <= Campaign.linkMaxLength && TrackingURL.textProblem($0) == nil ? URL(string: $0) : nil }
        linkLabel = try r["link_label"].text.map { String($0.prefix(Campaign.linkLabelMaxLength)) }
        videoURL = try r["video_url"].text.flatMap { TrackingURL.textProblem($0) == nil ? URL(string: $0) : nil }
        focus = try r["focus"].text.flatMap(FocusPoint.init(text:))
        groups = try r["groups"].text.map { CampaignStore.decodeList($0).filter(DeviceIdentity.isValid) }
        portraitURL = try r["portrait_url"].text.flatMap { TrackingURL.textProblem($0) == nil ? URL(string: $0) : nil }
    }
}
