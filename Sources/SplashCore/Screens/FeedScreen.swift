import FoundationEssentials

/// A feed's `screen` object: the fleet's screen schedule as the feed writes it (`hours`,
/// `days`, `offDates`, `timezone`), kept as text so that it is stored and carried as the
/// feed said it. A device's own `screen-*` settings win over it when any is set.
public struct FeedScreen: Equatable, Sendable, Codable {
    /// The windows of the day the screen is on, `"07:30-22:00, 23:00-01:00"`.
    public var hours: String?
    /// The days it is on, `"mon,tue,wed,thu,fri"`.
    public var days: String?
    /// The dates it stays off, `"2026-12-25, 2027-01-01"`.
    public var offDates: String?
    /// The IANA zone the schedule is read in; nil: the feed's `timezone`, else the device's.
    public var timezone: String?
    /// The group whose schedule this is (the feed's `groups`); nil: the feed's own `screen`.
    public var group: String?

    /// The fields of the object; another that looks like one of these is a warning.
    public static let fields = ["hours", "days", "offDates", "timezone"]

    /// The object with these fields.
    public init(hours: String? = nil, days: String? = nil, offDates: String? = nil, timezone: String? = nil) {
        self.hours = hours
        self.days = days
        self.offDates = offDates
        self.timezone = timezone
    }

    /// The schedule it says (throws `ScreenScheduleError` for a part that cannot be read).
    public func schedule() throws -> ScreenSchedule {
        try ScreenSchedule(hoursText: hours, daysText: days, offDatesText: offDates)
    }

    /// The object as stored beside the feed's state (JSON), and read back.
    public var stored: String {
        (try? JSONEncoder().encode(self)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    /// The object a `stored` text holds; nil for none or text that is not one.
    public init?(stored: String?) {
        guard let data = stored?.data(using: .utf8), let value = try? JSONDecoder().decode(Self.self, from: data)
        else { return nil }
        self = value
    }
}
