import FoundationEssentials

/// One campaign's page in the operator view: its card, its rules, its last shows.
public struct OperatorCampaignPage: Equatable, Sendable {
    /// Its card, as in the grid.
    public var tile: OperatorTile
    /// The campaign as the feed set it.
    public var campaign: Campaign
    /// Its last shows in the ledger, newest first; nil while they are read.
    public var shows: [ShowRecord]?
    /// Its cached picture, drawn at the page's size; nil when it has none.
    public var imagePath: String?
    /// Its clip, when it has one: what plays, or why its picture is shown instead.
    public var video: String?

    /// The page's line for `entry`'s clip: what plays, or why the picture is shown; nil
    /// without one.
    public static func videoLine(_ entry: CatalogEntry) -> String? {
        guard entry.campaign.videoURL != nil else { return nil }
        if let clip = entry.video { return "video: \(clip.facts.summary)" }
        switch entry.clipProblem {
        case .refused(let problem): return "video not played (its picture is shown): \(problem)"
        case .notCached(let why): return "video not cached yet (its picture is shown): \(why)"
        case nil: return "video not cached yet (its picture is shown)"
        }
    }

    /// How many of its shows the page lists.
    public static let showsListed = 20

    /// The page of `campaign`, shown with its card `tile`.
    public init(tile: OperatorTile, campaign: Campaign, shows: [ShowRecord]?, imagePath: String? = nil) {
        self.tile = tile
        self.campaign = campaign
        self.shows = shows
        self.imagePath = imagePath
    }

    /// Its rules, one line each, as the feed set them; times in `zone`, as people read them.
    public func rules(in zone: Zone) -> [String] {
        let c = campaign
        var lines = ["shows left: \(tile.remaining) of \(c.showLimit)"]
        // Shown now: when its shows run out at the rate of its latest (every show counts).
        if tile.ineligibility == nil, let shows,
           let runOut = RunOut.estimate(remaining: tile.remaining, recent: shows.prefix(RunOut.window).map(\.shownAt)) {
            lines.append("runs out \(runOut)")
        }
        if c.startAt != nil || c.endAt != nil {
            let when = { (d: Date?) in d.map { HumanTime.string($0, zone: zone) } ?? "…" }
            lines.append("window: \(when(c.startAt)) → \(when(c.endAt))")
        }
        if !c.hours.isEmpty { lines.append("hours: " + c.hours.map(\.text).joined(separator: ", ")) }
        if !c.days.isEmpty { lines.append("days: " + c.days.sorted().map(\.text).joined(separator: ", ")) }
        if let zone = c.timeZone { lines.append("time zone: \(zone)") }
        if let cap = c.maxPerDay { lines.append("at most \(cap) a day") }
        if let gap = c.minInterval { lines.append("at least \(gap) s apart") }
        if c.priority != 0 { lines.append("priority \(c.priority)") }
        if let countdown = c.countdown { lines.append("countdown \(countdown) s") }
        if let focus = c.focus { lines.append("focus: \(focus.x), \(focus.y) of the picture") }
        if let link = c.linkURL { lines.append("link: \(link.absoluteString)") }
        if let video { lines.append(video) }
        return lines
    }
}
