import FoundationEssentials

/// When the screen is on (`screen-hours`, `screen-days`, `screen-off-dates` in the config,
/// or a feed's `screen` object): the windows of the day in the grammar of a campaign's
/// `hours` (several, overnight allowed), the days of the week, and dates it stays off
/// (holidays), in local time. The part of an overnight window after midnight belongs to
/// the day it began on, for its day of the week and its off dates alike. Pure: the time
/// and the calendar (its time zone) are given.
public struct ScreenSchedule: Equatable, Sendable {
    /// The windows the screen is on; empty: all day.
    public var hours: [DailyWindow]
    /// The days it is on; empty: every day.
    public var days: Set<Weekday>
    /// Local dates (`YYYY-MM-DD`) it stays off all day.
    public var offDates: Set<String>

    /// A schedule of `hours` on `days`, off on `offDates`.
    public init(hours: [DailyWindow] = [], days: Set<Weekday> = [], offDates: Set<String> = []) {
        self.hours = hours
        self.days = days
        self.offDates = offDates
    }

    /// Whether the schedule says anything (a schedule with nothing set keeps the screen on).
    public var isSet: Bool { !hours.isEmpty || !days.isEmpty || !offDates.isEmpty }

    /// The schedule in words: "hours 07:00-15:00; days mon, tue; off 2026-12-25".
    public var summary: String {
        var parts: [String] = []
        parts.append(hours.isEmpty ? "all day" : "hours " + hours.map(\.text).joined(separator: ", "))
        if !days.isEmpty { parts.append("days " + days.sorted().map(\.text).joined(separator: ", ")) }
        if !offDates.isEmpty { parts.append("off " + offDates.sorted().joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    /// Whether the screen is on at `date`. A clock not trusted yet keeps it on: a kiosk
    /// that does not know the time must not go dark for it.
    public func isOn(at date: Date, zone: Zone, clockTrusted: Bool = true) -> Bool {
        guard clockTrusted, isSet else { return true }
        let local = zone.local(date)
        let minute = local.minuteOfDay
        let today = local.dayNumber
        let yesterday = today - 1
        let windows = hours.isEmpty ? [DailyWindow(start: 0, end: 1440)] : hours
        for w in windows {
            if w.overnight {
                if minute >= w.start, allowed(today) { return true }
                if minute < w.end, allowed(yesterday) { return true }
            } else if minute >= w.start, minute < w.end, allowed(today) {
                return true
            }
        }
        return false
    }

    /// The next moment after `date` at which the screen goes on or off, within nine days;
    /// nil when nothing changes in that time (or the clock is not trusted: it stays on).
    public func nextChange(after date: Date, zone: Zone, clockTrusted: Bool = true) -> Date? {
        guard clockTrusted, isSet else { return nil }
        let now = isOn(at: date, zone: zone)
        let windows = hours.isEmpty ? [DailyWindow(start: 0, end: 1440)] : hours
        let minutes = Set(windows.flatMap { [$0.start, $0.end] }.filter { $0 < 1440 }).sorted()
        let today = zone.local(date).dayNumber
        // Day by day, so the search stops at the first change (the loop asks at every tick).
        for day in today...(today + 9) {
            // A time the clock skips (a spring-forward night) is as far past the change.
            let moments = [zone.date(day: day)] + minutes.map { zone.date(day: day, minute: $0) }
            if let change = moments.filter({ $0 > date }).sorted().first(where: { isOn(at: $0, zone: zone) != now }) {
                return change
            }
        }
        return nil
    }

    private func allowed(_ day: Int) -> Bool {
        let weekday = Weekday(rawValue: Zone.weekday(ofDay: day)) ?? .sun
        guard days.isEmpty || days.contains(weekday) else { return false }
        let (year, month, date) = ISO8601.civilFromDays(day)
        return !offDates.contains(String(cFormat: "%04d-%02d-%02d", year, month, date))
    }
}

extension ScreenSchedule {
    /// A schedule from the config's or a feed's text: `hours` as `"07:00-12:00, 13:00-22:00"`,
    /// `days` as `"mon,tue,wed"`, `offDates` as `"2026-12-25, 2027-01-01"` (each nil or
    /// empty: not set). Throws `ScreenScheduleError` naming the part that is wrong.
    public init(hoursText: String?, daysText: String?, offDatesText: String?) throws {
        func items(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { $0.trimmedSpaces }.filter { !$0.isEmpty }
        }
        var hours: [DailyWindow] = []
        for item in items(hoursText) {
            guard let w = DailyWindow(item) else { throw ScreenScheduleError.badHours(item) }
            hours.append(w)
        }
        var days: Set<Weekday> = []
        for item in items(daysText) {
            guard let d = Weekday(item) else { throw ScreenScheduleError.badDay(item) }
            days.insert(d)
        }
        var dates: Set<String> = []
        for item in items(offDatesText) {
            guard Self.isDate(item) else { throw ScreenScheduleError.badDate(item) }
            dates.insert(item)
        }
        self.init(hours: hours, days: days, offDates: dates)
    }

    /// Whether `text` is a real calendar date written `YYYY-MM-DD`.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), d >= 1
        else { return false }
        let lengths = [31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return d <= lengths[m - 1]
    }
}
