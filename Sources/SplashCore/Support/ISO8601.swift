import FoundationEssentials

/// ISO 8601 dates as the feed writes them (RFC 3339): `2026-01-31T09:00:00+08:00`, `Z` or
/// any offset, with or without fractional seconds, `T` or a space between date and time.
/// Parsed here rather than with ISO8601DateFormatter, which goes through ICU and took
/// most of the time of a 10,000-campaign sync.
public enum ISO8601 {
    /// The moment `text` names, or nil when it is not a full date and time with an offset.
    public static func date(from text: String) -> Date? {
        let b = Array(text.utf8)
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= b.count else { return nil }
            var n = 0
            for k in i..<i + digits {
                guard (48...57).contains(b[k]) else { return nil }
                n = n * 10 + Int(b[k] - 48)
            }
            i += digits
            return n
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              i < b.count, b[i] == 84 || b[i] == 116 || b[i] == 32 else { return nil }
        i += 1
        guard let hour = number(2), expect(58), let minute = number(2), expect(58), let second = number(2) else { return nil }
        var fraction = 0.0
        if i < b.count, b[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < b.count, (48...57).contains(b[i]) {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            let sign = b[i] == 45 ? -1 : 1
            i += 1
            guard let oh = number(2), expect(58), let om = number(2), oh < 24, om < 60 else { return nil }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second <= 60 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// A day alone, `2026-12-01`: its midnight in `zone`.
    public static func day(from text: String, in zone: Zone) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        return zone.date(year: year, month: month, day: day)
    }

    /// What is wrong with `text` as a date, when one part can be named: a month, a day,
    /// an hour out of range, or a missing offset.
    public static func problem(_ text: String) -> String? {
        let b = Array(text.utf8)
        func number(_ at: Int, _ digits: Int) -> Int? {
            guard at + digits <= b.count, b[at..<at + digits].allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int(String(decoding: b[at..<at + digits], as: UTF8.self))
        }
        guard let year = number(0, 4), b.count >= 10, b[4] == 45, b[7] == 45, let month = number(5, 2), let day = number(8, 2) else {
            return nil
        }
        if !(1...12).contains(month) { return "there is no month \(month)" }
        if day < 1 || day > daysIn(month: month, year: year) { return "month \(month) of \(year) has no day \(day)" }
        guard b.count > 10 else { return nil }
        if let hour = number(11, 2), hour > 23 { return "there is no hour \(hour)" }
        if b.count == 19 { return "the time has no offset: add Z for UTC or one like +08:00" }
        return nil
    }

    /// `2026-01-31T01:00:00Z`.
    public static func string(from date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(total) / 86_400).rounded(.down))
        let rest = total - days * 86_400
        let (y, m, d) = civilFromDays(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
