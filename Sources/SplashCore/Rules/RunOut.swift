import FoundationEssentials

/// When a campaign will have used up its shows at the rate it has lately been shown (every
/// show counts, those of the attract loop on an empty lobby too): from its latest shows,
/// "about 1 h 40 min at 1 show a minute". Pure: the shows' times come in.
public enum RunOut {
    /// How many of the latest shows the rate is taken from.
    public static let window = 10

    /// The estimate for `remaining` shows, from `recent` show times (in any order: a clock
    /// set back leaves the ledger's rows out of time order); nil when there is nothing to go
    /// by (fewer than two shows at different times) or nothing left.
    public static func estimate(remaining: Int, recent: [Date]) -> String? {
        guard remaining > 0, recent.count >= 2, let first = recent.min(), let last = recent.max(), last > first else { return nil }
        let perShow = last.timeIntervalSince(first) / Double(recent.count - 1)
        return "about \(duration(perShow * Double(remaining))) at \(rate(perShow))"
    }

    /// "40 min", "1 h 40 min", "3 days".
    static func duration(_ seconds: Double) -> String {
        let minutes = max(1, Int((seconds / 60).rounded()))
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 48 * 60 { return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min" }
        return "\(Int((Double(minutes) / 1440).rounded())) days"
    }

    /// "1 show a minute", "12 shows an hour", "3 shows a day".
    static func rate(_ perShow: Double) -> String {
        func count(_ n: Double, _ per: String) -> String {
            let whole = Int(n.rounded())
            return "\(whole) \(whole == 1 ? "show" : "shows") \(per)"
        }
        if perShow <= 90 { return count(60 / perShow, "a minute") }
        if perShow <= 5400 { return count(3600 / perShow, "an hour") }
        return count(86400 / perShow, "a day")
    }
}
