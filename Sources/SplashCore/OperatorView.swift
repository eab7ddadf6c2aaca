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
    /// Why the last sync failed; nil once a feed has been applied since.
    public var lastError: String?
    /// The warnings of the feed in force.
    public var warnings: [String] = []
    /// What keeps the kiosk from working as it should (a folder it cannot write).
    public var problems: [String] = []
    /// Bytes of cached pictures.
    public var cacheBytes: Int
    /// The image cache's cap in bytes (`cache-max-mb`).
    public var cacheCapBytes: Int
    /// The running Splashboard's version.
    public var version: String
    /// SDL's video driver (`x11`, `kmsdrm`, …), or `drm` on the console.
    public var driver: String
    /// SDL's render driver (`software`, `opengles2`, …).
    public var renderer: String
    /// The size drawn on, `WxH`.
    public var screen: String
    /// Who this kiosk is to its fleet (`device-id`); nil when it has none.
    public var deviceID: String?

    /// What the shell read; the optional facts default to none.
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
    /// The campaign's id.
    public var id: String
    /// The campaign's title, if the feed gave one.
    public var title: String?
    /// Shows left on this device.
    public var remaining: Int
    /// How many times the feed lets this device show it in all.
    public var showTime: Int
    /// Why it cannot be shown; nil when it is eligible.
    public var ineligibility: String?
    /// It is the one the next splash would show.
    public var isNext: Bool
    /// Its JPEG thumbnail; nil when there is none.
    public var thumbnail: [UInt8]?
    /// When time alone makes it eligible again (its hours, its day, its daily cap or
    /// spacing, its start); nil otherwise.
    public var eligibleAgain: Date? = nil
}

/// The operator view: the campaign library and why the screen shows what it shows.
public struct OperatorScene: Equatable, Sendable {
    /// The cards of the page on the screen, in the view's order (`OperatorOrder`).
    public var tiles: [OperatorTile]
    /// What the shell read for the view; nil until it has been read.
    public var info: OperatorInfo?
    /// When the next sync starts (nil while one runs).
    public var nextSync: Date?
    /// A feed sync is running.
    public var syncRunning: Bool
    /// Where the poem on the poetry panel comes from.
    public var poetrySource: PoetrySource
    /// The title of the poem on the poetry panel.
    public var poetryOrigin: String
    /// When the poetry panel changes next (a new entry, or the provider asked again).
    public var nextPoetry: Date?
    /// The wall-clock time the view was made, for ages ("3 min ago").
    public var now: Date
    /// The page of the library on the screen (from 0), and how many there are.
    public var page: Int = 0
    /// How many pages the library takes, at least one.
    public var pageCount: Int = 1
    /// A campaign's own page, when a card was tapped.
    public var campaignPage: OperatorCampaignPage? = nil
}

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
