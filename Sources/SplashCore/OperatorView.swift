import Foundation

/// What the shell reads for the operator view: thumbnails from the database, the feed's
/// sync record, cache use, and the system the kiosk runs on.
public struct OperatorInfo: Equatable, Sendable {
    /// JPEG thumbnails by campaign id.
    public var thumbnails: [String: [UInt8]]
    /// The feed's public address (no query, fragment or user part: the view is on the screen).
    public var feedURL: String
    /// When the kiosk last confirmed its catalog with the feed (a 304 counts).
    public var lastSuccess: Date?
    /// When the feed's content last changed.
    public var lastChange: Date?
    public var lastError: String?
    /// The warnings of the feed in force.
    public var warnings: [String] = []
    /// What keeps the kiosk from working as it should (a folder it cannot write).
    public var problems: [String] = []
    public var cacheBytes: Int
    public var cacheCapBytes: Int
    public var version: String
    public var driver: String
    public var renderer: String
    public var screen: String
    /// Who this kiosk is to its fleet (`device-id`); nil when it has none.
    public var deviceID: String?

    public init(thumbnails: [String: [UInt8]], feedURL: String, lastSuccess: Date?, lastError: String?, cacheBytes: Int,
                cacheCapBytes: Int, version: String, driver: String, renderer: String, screen: String,
                deviceID: String? = nil, lastChange: Date? = nil, warnings: [String] = [], problems: [String] = []) {
        self.deviceID = deviceID
        self.lastChange = lastChange
        self.warnings = warnings
        self.problems = problems
        self.thumbnails = thumbnails
        self.feedURL = feedURL
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.cacheBytes = cacheBytes
        self.cacheCapBytes = cacheCapBytes
        self.version = version
        self.driver = driver
        self.renderer = renderer
        self.screen = screen
    }
}

/// One campaign in the operator view's grid.
public struct OperatorTile: Equatable, Sendable {
    public var id: String
    public var title: String?
    public var remaining: Int
    public var showTime: Int
    /// Why it cannot be shown; nil when it is eligible.
    public var ineligibility: String?
    /// It is the one the next splash would show.
    public var isNext: Bool
    public var thumbnail: [UInt8]?
    /// When time alone makes it eligible again (its hours, its day, its daily cap or
    /// spacing, its start); nil otherwise.
    public var eligibleAgain: Date? = nil
}

/// The operator view: the campaign library and why the screen shows what it shows.
public struct OperatorScene: Equatable, Sendable {
    public var tiles: [OperatorTile]
    public var info: OperatorInfo?
    /// When the next sync starts (nil while one runs).
    public var nextSync: Date?
    public var syncRunning: Bool
    public var poetrySource: PoetrySource
    public var poetryOrigin: String
    public var nextPoetry: Date?
    /// The wall-clock time the view was made, for ages ("3 min ago").
    public var now: Date
    /// The page of the library on the screen (from 0), and how many there are.
    public var page: Int = 0
    public var pageCount: Int = 1
    /// A campaign's own page, when a card was tapped.
    public var campaignPage: OperatorCampaignPage? = nil
}

/// One campaign's page in the operator view: its card, its rules, its last shows.
public struct OperatorCampaignPage: Equatable, Sendable {
    public var tile: OperatorTile
    public var campaign: Campaign
    /// Its last shows in the ledger, newest first; nil while they are read.
    public var shows: [ShowRecord]?
    /// Its cached picture, drawn at the page's size; nil when it has none.
    public var imagePath: String?

    /// How many of its shows the page lists.
    public static let showsListed = 20

    public init(tile: OperatorTile, campaign: Campaign, shows: [ShowRecord]?, imagePath: String? = nil) {
        self.tile = tile
        self.campaign = campaign
        self.shows = shows
        self.imagePath = imagePath
    }

    /// Its rules, one line each, as the feed set them; times in `zone`, as people read them.
    public func rules(in zone: TimeZone) -> [String] {
        let c = campaign
        var lines = ["shows left: \(tile.remaining) of \(c.showTime)"]
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
        if let link = c.linkURL { lines.append("link: \(link.absoluteString)") }
        return lines
    }
}

/// Rules of the hidden gesture and of the view's life.
public enum OperatorGesture {
    /// How long a press in the corner must last.
    public static let holdSeconds: Seconds = 3
    /// The view closes after this long without input.
    public static let idleSeconds: Seconds = 30

    /// How far across a finger or the mouse must move to turn the page: 6 % of the width,
    /// at least 40 px.
    public static func swipeDistance(on screen: Size) -> Int { max(40, screen.width * 6 / 100) }

    /// The top-left corner where a long press opens the view: a square of 8 % of the
    /// shorter side, at least 80 px.
    public static func corner(on screen: Size) -> Rect {
        let side = max(80, screen.shorterSide * 8 / 100)
        return Rect(x: 0, y: 0, width: side, height: side)
    }
}
