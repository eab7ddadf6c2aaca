import FoundationEssentials

/// A time zone and the Gregorian calendar read in it: the offset from UTC at any instant
/// (from the zone database's file, `/usr/share/zoneinfo`, with its rule for the years past
/// its table), and the local days, hours and weekdays the product's rules are written in.
/// Written here because Foundation's zones and calendars need ICU, which the programs do
/// not carry.
public struct Zone: Sendable, Hashable, CustomStringConvertible {
    /// The zone database's name (`Asia/Shanghai`, `UTC`), or `GMT+0800` for a fixed offset.
    public let identifier: String
    /// Instants (seconds since 1970, UTC) at which the offset changes, ascending.
    let transitions: [Int64]
    /// The offset in force from each transition on.
    let offsets: [Int32]
    /// The offset before the first transition.
    let initial: Int32
    /// The rule after the last transition (nil: the last offset stays).
    let rule: ZoneRule?

    init(identifier: String, transitions: [Int64] = [], offsets: [Int32] = [], initial: Int32, rule: ZoneRule? = nil) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.initial = initial
        self.rule = rule
    }

    /// A zone that is always `seconds` east of UTC, named `GMT+0800` (UTC itself: `GMT`).
    public init(secondsFromGMT seconds: Int) {
        let a = abs(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let name = seconds == 0 ? "GMT" : "GMT\(seconds < 0 ? "-" : "+")\(two(a / 3600))\(two(a / 60 % 60))"
        self.init(identifier: name, initial: Int32(seconds))
    }

    /// UTC.
    public static let gmt = Zone(identifier: "GMT", initial: 0)

    public var description: String { identifier }

    /// Seconds east of UTC at `date`.
    public func secondsFromGMT(for date: Date = Date()) -> Int {
        Int(offset(at: Int64((date.timeIntervalSince1970).rounded(.down))))
    }

    func offset(at t: Int64) -> Int32 {
        guard let first = transitions.first, t >= first else { return initial }
        if let last = transitions.last, t >= last, let rule {
            return rule.offset(at: t)
        }
        // The last transition at or before t.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if transitions[mid] <= t { low = mid } else { high = mid - 1 }
        }
        return offsets[low]
    }
}

/// A local time in a zone, as the rules read it.
public struct LocalTime: Equatable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 1 Sunday … 7 Saturday.
    public var weekday: Int
    /// Days since 1970-01-01 of the local date.
    public var dayNumber: Int

    /// Minutes since local midnight.
    public var minuteOfDay: Int { hour * 60 + minute }
    /// `2026-12-25`.
    public var dayText: String { String(cFormat: "%04d-%02d-%02d", year, month, day) }
}

public extension Zone {
    /// The local time at `date`.
    func local(_ date: Date) -> LocalTime {
        let t = Int64(date.timeIntervalSince1970.rounded(.down))
        let local = Int(t) + Int(offset(at: t))
        let days = Int((Double(local) / 86_400).rounded(.down))
        let rest = local - days * 86_400
        let (y, m, d) = ISO8601.civilFromDays(days)
        let weekday = Self.weekday(ofDay: days)
        return LocalTime(year: y, month: m, day: d, hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60,
                         weekday: weekday, dayNumber: days)
    }

    /// The instant of `minute` minutes past midnight on local day `dayNumber`. A local time
    /// the clock skips (a spring-forward night) is the first moment after it, the change
    /// itself (02:30 is 03:00); one it passes twice is its first occurrence.
    func date(day dayNumber: Int, minute: Int = 0) -> Date {
        let local = Int64(dayNumber) * 86_400 + Int64(minute) * 60
        let before = offset(at: local - 86_400 - 14 * 3600)
        let after = offset(at: local + 86_400 + 14 * 3600)
        let candidates = [before, after].map { local - Int64($0) }.filter { offset(at: $0) == Int32(local - $0) }
        if let first = candidates.min() { return Date(timeIntervalSince1970: Double(first)) }
        // Skipped: the instant the offset changes, between the two readings.
        var low = local - Int64(after)
        var high = local - Int64(before)
        while high - low > 1 {
            let mid = (low + high) / 2
            if offset(at: mid) == before { low = mid } else { high = mid }
        }
        return Date(timeIntervalSince1970: Double(high))
    }

    /// The weekday of day `dayNumber` (days since 1970-01-01): 1 Sunday … 7 Saturday.
    static func weekday(ofDay dayNumber: Int) -> Int { ((dayNumber % 7) + 7 + 4) % 7 + 1 }

    /// The start of the local day of `date`.
    func startOfDay(for date: Date) -> Date { self.date(day: local(date).dayNumber) }

    /// The next local midnight after `date`.
    func nextMidnight(after date: Date) -> Date { self.date(day: local(date).dayNumber + 1) }

    /// Whether `a` and `b` fall on the same local day.
    func isSameDay(_ a: Date, _ b: Date) -> Bool { local(a).dayNumber == local(b).dayNumber }

    /// Local midnight of `year`-`month`-`day`.
    func date(year: Int, month: Int, day: Int) -> Date {
        date(day: ISO8601.daysFromCivil(year: year, month: month, day: day))
    }
}
