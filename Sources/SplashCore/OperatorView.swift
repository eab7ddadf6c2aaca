import Foundation

/// What the shell reads for the operator view: thumbnails from the database, the feed's
/// sync record, cache use, and the system the kiosk runs on.
public struct OperatorInfo: Equatable, Sendable {
    /// JPEG thumbnails by campaign id.
    public var thumbnails: [String: [UInt8]]
    /// The feed's public address (no query, fragment or user part: the view is on the screen).
    public var feedURL: String
    public var lastSuccess: Date?
    public var lastError: String?
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
                deviceID: String? = nil) {
        self.deviceID = deviceID
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
}

/// Rules of the hidden gesture and of the view's life.
public enum OperatorGesture {
    /// How long a press in the corner must last.
    public static let holdSeconds: Seconds = 3
    /// The view closes after this long without input.
    public static let idleSeconds: Seconds = 30

    /// The top-left corner where a long press opens the view: a square of 8 % of the
    /// shorter side, at least 80 px.
    public static func corner(on screen: Size) -> Rect {
        let side = max(80, screen.shorterSide * 8 / 100)
        return Rect(x: 0, y: 0, width: side, height: side)
    }
}
