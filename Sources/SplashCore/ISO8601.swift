import Foundation

/// ISO 8601 dates as the feed writes them: with any UTC offset, with or without
/// fractional seconds. The formatters are made once: a 10,000-campaign feed has
/// tens of thousands of dates.
public enum ISO8601 {
    private static let plain: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f
    }()

    private static let fractional: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }()

    public static func date(from text: String) -> Date? {
        plain.date(from: text) ?? fractional.date(from: text)
    }

    /// `2026-01-31T01:00:00Z`.
    public static func string(from date: Date) -> String {
        plain.string(from: date)
    }
}
