import FoundationEssentials

/// One campaign as the feed describes it.
public struct Campaign: Equatable, Hashable, Sendable {
    /// The ledger key: the feed's `id`, or the `picUrl` when it has none.
    public var id: ID
    /// The image, absolute (relative URLs are resolved against the feed's URL).
    public var picURL: URL
    /// How many times this device may show it: the feed's `showTime` (the name the feed keeps
    /// from the seed format; it is a count of shows, not a time).
    public var showLimit: Int
    /// Its name for people: on its detail screen and in the operator's lists.
    public var title: String?
    /// The longer text of its detail screen.
    public var detail: String?
    /// It is not shown before this moment.
    public var startAt: Date?
    /// It is not shown after this moment.
    public var endAt: Date?
    /// When the feed last changed it; the newer of two campaigns is the later one.
    public var updatedAt: Date?
    /// Position in the feed; a later position is newer when `updatedAt` is absent.
    public var position: Int
    /// Tracking URLs (templates, `TrackingURL`) fired once per show after its first frame.
    public var impressionURLs: [String] = []
    /// Tracking URLs fired once per click-through.
    public var clickURLs: [String] = []
    /// Daily windows of local time it may be shown in (none: all day).
    public var hours: [DailyWindow] = []
    /// Days of the week it may be shown on (none: every day).
    public var days: Set<Weekday> = []
    /// The zone `hours`, `days` and `maxPerDay` are read in (the feed's `timezone`); nil:
    /// the device's.
    public var timeZone: String?
    /// Shows per local calendar day at the most.
    public var maxPerDay: Int?
    /// Seconds between two of its shows at the least.
    public var minInterval: Int?
    /// The highest priority among the eligible is shown (default 0).
    public var priority: Int = 0
    /// Its own splash countdown (within `countdownRange`), instead of `--countdown`.
    public var countdown: Int?

    /// The seconds a splash may count down, wherever they are given: `--countdown`, a
    /// campaign's `countdown`, a stored row.
    public static let countdownRange = 1...30

    /// The longest `linkUrl`, in characters (its QR code must still fit the detail screen).
    public static let linkMaxLength = 1024
    /// The longest `linkLabel`, in characters: one caption line beside or under the code.
    public static let linkLabelMaxLength = 24

    /// The daily caps, spacings (seconds) and priorities a campaign may have, wherever they
    /// are read: the feed (a value outside is dropped with a warning) and a stored row (held
    /// to them again).
    public static let maxPerDayRange = 1...1_000_000
    public static let minIntervalRange = 1...31_536_000
    public static let priorityRange = -1_000_000...1_000_000
    /// Shown as a QR code on its detail screen.
    public var linkURL: URL?
    /// The feed's own words under the QR code, for what it opens ("扫码预约座位"); nil:
    /// "扫码打开" over the link's host.
    public var linkLabel: String?
    /// Its clip, played under the pill with `picURL` as its poster (absolute, as `picURL`).
    public var videoURL: URL?
    /// The point of its picture kept in view when the picture is cropped; nil: the centre.
    public var focus: FocusPoint?
    /// Its picture for portrait screens (absolute, as `picURL`); nil: `picURL` everywhere.
    public var portraitURL: URL?
    /// The device groups it is for (a device's id is a group of its own); nil: every device.
    public var groups: [String]?

    /// Whether being shown depends on the date or the time of day: such a campaign waits
    /// until the clock can be trusted.
    public var isDateBound: Bool {
        startAt != nil || endAt != nil || !hours.isEmpty || !days.isEmpty || maxPerDay != nil
    }

    /// A campaign with no tracking, schedule, limits or link; set those afterwards.
    public init(id: ID, picURL: URL, showLimit: Int, title: String? = nil, detail: String? = nil,
                startAt: Date? = nil, endAt: Date? = nil, updatedAt: Date? = nil, position: Int = 0) {
        self.id = id
        self.picURL = picURL
        self.showLimit = showLimit
        self.title = title
        self.detail = detail
        self.startAt = startAt
        self.endAt = endAt
        self.updatedAt = updatedAt
        self.position = position
    }

    /// Orders campaigns by newness: the later `updatedAt`, then the later feed position.
    public static func isOlder(_ a: Campaign, than b: Campaign) -> Bool {
        let ua = a.updatedAt ?? .distantPast
        let ub = b.updatedAt ?? .distantPast
        return ua != ub ? ua < ub : a.position < b.position
    }
}
