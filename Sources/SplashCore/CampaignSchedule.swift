import Foundation

/// A daily window of local time, `"HH:MM-HH:MM"`; one that ends before it starts runs
/// over midnight (`"22:00-02:00"`). `24:00` ends at midnight.
public struct DailyWindow: Equatable, Hashable, Sendable {
    /// Minutes after midnight, 0…1439.
    public var start: Int
    /// Minutes after midnight, 1…1440.
    public var end: Int

    /// The window from `start` to `end`, in minutes after midnight.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Whether it runs over midnight.
    public var overnight: Bool { end <= start }

    /// The window in `text`, or nil.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let s = Self.minutes(parts[0].trimmingCharacters(in: .whitespaces), allow24: false),
              let e = Self.minutes(parts[1].trimmingCharacters(in: .whitespaces), allow24: true), s != e
        else { return nil }
        start = s
        end = e
    }

    private static func minutes(_ text: String, allow24: Bool) -> Int? {
        let hm = text.split(separator: ":")
        guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]),
              (0...59).contains(m) else { return nil }
        if h == 24 && m == 0 && allow24 { return 1440 }
        guard (0...23).contains(h) else { return nil }
        return h * 60 + m
    }

    /// The window as the feed writes it, `"HH:MM-HH:MM"`.
    public var text: String {
        func hm(_ m: Int) -> String { String(format: "%02d:%02d", m / 60, m % 60) }
        return "\(hm(start))-\(hm(end))"
    }
}

/// A day of the week as the feed writes it (`"mon"` … `"sun"`), numbered as Foundation's
/// calendar numbers weekdays (1 = Sunday).
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case sun = 1, mon, tue, wed, thu, fri, sat

    /// The day in `text` (`"mon"`, in any case), or nil.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "sun": self = .sun
        case "mon": self = .mon
        case "tue": self = .tue
        case "wed": self = .wed
        case "thu": self = .thu
        case "fri": self = .fri
        case "sat": self = .sat
        default: return nil
        }
    }

    /// The day as the feed writes it, `"sun"` … `"sat"`.
    public var text: String { ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][rawValue - 1] }

    /// Orders the days from Sunday to Saturday.
    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// How the kiosk chooses among the eligible campaigns of the top priority (`--pick`).
public enum PickRule: String, CaseIterable, Sendable {
    /// The newest (latest `updatedAt`, else later in the feed): the seed's rule.
    case newest
    /// In turn, like a playlist: the least recently shown first.
    case rotate
}

/// What eligibility depends on besides the catalog and the wall clock.
public struct RuleContext: Equatable, Sendable {
    /// Whether the wall clock can be trusted (`ClockTrust`); until it can, campaigns bound
    /// to dates and times are not shown.
    public var clockTrusted: Bool
    /// The kiosk's monotonic seconds now, for `minInterval` within a run (the wall clock
    /// may jump); nil outside a run (the commands).
    public var uptime: Double?
    /// The zone of campaigns whose feed names none: the device's.
    public var deviceTimeZone: TimeZone
    /// How to choose among the eligible campaigns of the top priority.
    public var pick: PickRule

    /// No default for the clock's trust or the zone: every caller says what its device has.
    public init(clockTrusted: Bool, uptime: Double? = nil, deviceTimeZone: TimeZone, pick: PickRule = .newest) {
        self.clockTrusted = clockTrusted
        self.uptime = uptime
        self.deviceTimeZone = deviceTimeZone
        self.pick = pick
    }
}
