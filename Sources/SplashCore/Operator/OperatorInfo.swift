import FoundationEssentials

/// What the shell reads for the operator view: thumbnails from the database, the feed's
/// sync record, cache use, and the system the kiosk runs on.
public struct OperatorInfo: Equatable, Sendable {
    /// JPEG thumbnails by campaign id.
    public var thumbnails: [Campaign.ID: [UInt8]]
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
    /// SDL's video driver in a window (`x11`, `wayland`, `kmsdrm`), `drm` or `fbdev` on the
    /// console, `dummy` headless.
    public var driver: String
    /// How frames reach the output: `software` (drawn in memory and copied), or SDL's render
    /// driver where a window has no framebuffer (`opengles2`, …).
    public var renderer: String
    /// The size drawn on, `WxH`.
    public var screen: String
    /// Who this kiosk is to its fleet (`device-id`); nil when it has none.
    public var deviceID: String?
    /// The groups it is in (`device-groups`; its id is one of its own too).
    public var groups: [String] = []

    /// What the shell read; the optional facts default to none.
    public init(thumbnails: [Campaign.ID: [UInt8]], feedURL: String, lastSuccess: Date?, lastError: String?, cacheBytes: Int,
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
