import FoundationEssentials

/// Times as people read them on the screens and in the command's tables: local time with
/// its zone, `2026-12-01 16:00 (UTC+08:00)`; RFC 3339 is only for JSON. Worked out by
/// arithmetic on the zone's offset, not with a formatter (no ICU at start-up).
public enum HumanTime {
    /// `2026-12-01 16:00 (UTC+08:00)` in `zone`; with `seconds`, `16:00:05`.
    public static func string(_ date: Date, zone: Zone, seconds: Bool = false) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let local = Int((date.timeIntervalSince1970 + Double(offset)).rounded(.down))
        let days = Int((Double(local) / 86_400).rounded(.down))
        let rest = local - days * 86_400
        let (y, m, d) = ISO8601.civilFromDays(days)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(y)-\(two(m))-\(two(d)) \(two(rest / 3600)):\(two(rest / 60 % 60))"
        if seconds { text += ":\(two(rest % 60))" }
        return text + " (\(zoneName(offset)))"
    }

    /// `UTC`, `UTC+08:00`, `UTC-05:30`.
    static func zoneName(_ offset: Int) -> String {
        guard offset != 0 else { return "UTC" }
        let a = abs(offset)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "UTC\(offset < 0 ? "-" : "+")\(two(a / 3600)):\(two(a / 60 % 60))"
    }

    /// `in 40 s`, `in 5 min`, `in 3 h 5 min` (`in 3 h` when `compact`), `in 2 d`.
    public static func until(_ date: Date, from now: Date, compact: Bool = false) -> String {
        let s = max(0, Int(date.timeIntervalSince(now).rounded(.up)))
        switch s {
        case ..<60: return "in \(s) s"
        case ..<3600: return "in \((s + 59) / 60) min"
        case ..<86_400: return compact || s % 3600 < 60 ? "in \(s / 3600) h" : "in \(s / 3600) h \((s % 3600) / 60) min"
        default: return "in \(s / 86_400) d"
        }
    }

    /// `12 s ago`, `5 min ago`, `3 h ago`, `2 d ago`.
    public static func age(from date: Date, to now: Date) -> String {
        let s = max(0, Int(now.timeIntervalSince(date)))
        switch s {
        case ..<60: return "\(s) s ago"
        case ..<3600: return "\(s / 60) min ago"
        case ..<86_400: return "\(s / 3600) h ago"
        default: return "\(s / 86_400) d ago"
        }
    }
}
