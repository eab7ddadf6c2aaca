import FoundationEssentials

/// A screen schedule that cannot be read: which part, and how it is written.
public enum ScreenScheduleError: LocalizedError, Equatable {
    case badHours(String)
    case badDay(String)
    case badDate(String)

    public var errorDescription: String? {
        switch self {
        case .badHours(let text):
            return "\"\(text)\" is not a window of the day: write HH:MM-HH:MM, like 07:30-22:00 (22:00-02:00 runs over midnight)"
        case .badDay(let text):
            return "\"\(text)\" is not a day: write mon, tue, wed, thu, fri, sat or sun"
        case .badDate(let text):
            return "\"\(text)\" is not a date: write YYYY-MM-DD, like 2026-12-25"
        }
    }
}
