import FoundationEssentials

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
        guard parts.count == 2, let s = Self.minutes(parts[0].trimmedSpaces, allow24: false),
              let e = Self.minutes(parts[1].trimmedSpaces, allow24: true), s != e
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
        func hm(_ m: Int) -> String { String(cFormat: "%02d:%02d", m / 60, m % 60) }
        return "\(hm(start))-\(hm(end))"
    }
}
