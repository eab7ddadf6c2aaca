import FoundationEssentials

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
