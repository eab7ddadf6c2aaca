import FoundationEssentials

/// The parts of the options the reducer decides with.
public struct KioskSettings: Equatable, Sendable {
    /// Seconds on the splash (`countdown`).
    public var countdown: Int
    /// What the splash does when no campaign is eligible.
    public var fallback: FallbackMode
    /// Seconds; 0 = never.
    public var attractAfter: Int
    /// Seconds between feed syncs.
    public var syncInterval: Int
    /// Seconds between poetry refreshes.
    public var poetryRefresh: Int
    /// The bundled default splash image.
    public var defaultImage: String
    /// Detail text when neither the campaign nor the feed has any.
    public var defaultMessage: String
    /// How the eligible campaigns of the top priority take turns (`--pick`).
    public var pick: PickRule
    /// The device's time zone: campaigns' hours and days are read in it unless their feed
    /// names one.
    public var timeZone: Zone

    /// When the run ends by itself (`--exit-after`); nil: never.
    public var exitAfter: ExitCondition?
    /// Every show's end is sent as proof of play (`report-url` is set).
    public var reportsShows = false

    /// When the screen is on (`screen-hours`, `screen-days`, `screen-off-dates`); one that
    /// says nothing leaves it to the feed's `screen` object.
    public var screenSchedule = ScreenSchedule()
    /// Seconds a touch on a dark screen lights it for (`wake-on-touch`); 0: a touch does not.
    public var wakeOnTouch = 0
    /// The last run left the screen dark (stopped while off): this one lights it by its
    /// means after its first frame, schedule or not, so a TV left in standby or a backlight
    /// left at 0 is not dark for good.
    public var screenLeftDark = false

    /// Seeds the spread of the sync waits (`SyncSchedule`): random for each start of a kiosk.
    public var syncSeed: UInt64 = 0
    /// How a splash picture is placed on a screen of another shape (`fit`): where the pill
    /// goes depends on where the picture's edges fall.
    public var fit: ImageFit = .fit
    /// The default picture's size in pixels, read from its header at the start (nil when it
    /// cannot be): its pill is placed clear of its edges as a campaign's is.
    public var defaultPictureSize: Size?
    /// The groups this device is in (`device-groups` and its id): campaigns for other
    /// screens are not eligible here.
    public var device: DeviceGroups?

    /// Settings with these values, the device's `timeZone` and its `pick` rule given (no
    /// zone or rule is assumed); the rest as the options' defaults.
    public init(countdown: Int = 3, fallback: FallbackMode = .image, attractAfter: Int = 60, syncInterval: Int = 900,
                poetryRefresh: Int = 300, defaultImage: String, defaultMessage: String = KioskSettings.standardMessage,
                pick: PickRule, timeZone: Zone) {
        self.pick = pick
        self.timeZone = timeZone
        self.poetryRefresh = poetryRefresh
        self.countdown = countdown
        self.fallback = fallback
        self.attractAfter = attractAfter
        self.syncInterval = syncInterval
        self.defaultImage = defaultImage
        self.defaultMessage = defaultMessage
    }

    /// The settings a run takes from its `options`, every one of them: the device's zone
    /// `timeZone`, the bundled `defaultImage`, whether the last run left the screen dark and
    /// the seed of its sync waits being the run's own.
    public init(options: KioskOptions, defaultImage: String, timeZone: Zone, screenLeftDark: Bool, syncSeed: UInt64) {
        self.init(countdown: options.countdown, fallback: options.fallback, attractAfter: options.attractAfter,
                  syncInterval: options.syncInterval, poetryRefresh: options.poetryRefresh, defaultImage: defaultImage,
                  pick: options.pick, timeZone: timeZone)
        exitAfter = options.exitAfter
        reportsShows = options.reportURL != nil
        screenSchedule = options.screenSchedule
        wakeOnTouch = options.wakeOnTouch
        self.screenLeftDark = screenLeftDark
        self.syncSeed = syncSeed
        fit = options.fit
    }

    /// The default detail text, shown when neither the campaign nor the feed has any.
    public static let standardMessage = "欢迎光临。点一下屏幕，看看今天的新鲜事。"
}
