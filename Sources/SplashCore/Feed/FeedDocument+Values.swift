import FoundationEssentials

/// The caps on a feed's text and how its values are read and quoted in warnings.
extension FeedDocument {
    /// The longest title, detail and message kept, in characters: more than a screen shows.
    /// Longer text is cut with "…" and a warning, so no feed can make laying out a screen
    /// take long.
    public static let maxTitle = 200
    /// The longest campaign `detail` kept, in characters.
    public static let maxDetail = 2_000
    /// The longest document `message` kept, in characters.
    public static let maxMessage = 2_000

    /// `text` cut to `limit` characters with "…", noting it in `warnings`.
    static func capped(_ text: String, to limit: Int, what: String, warnings: inout [String]) -> String {
        var notes: [(String, String)] = []
        let cut = capped(text, to: limit, what: what, notes: &notes)
        warnings += notes.map { "\($0.0): \($0.1)" }
        return cut
    }

    /// `text` cut to `limit` characters with "…", noting it for the field `what`.
    static func capped(_ text: String, to limit: Int, what: String, notes: inout [(String, String)]) -> String {
        var count = 0
        var end = text.startIndex
        while end < text.endIndex, count < limit {
            end = text.index(after: end)
            count += 1
        }
        guard end < text.endIndex else { return text }
        let cut = String(text[..<text.index(before: end)]) + "…"
        notes.append((what, "longer than \(limit) characters; cut"))
        return cut
    }

    /// An integer from JSON, refusing booleans, fractions and values out of range.
    static func wholeNumber(_ raw: Any) -> Int? {
        if let n = raw as? Int { return abs(n) < 1_000_000_000_000_000 ? n : nil }
        guard let d = raw as? Double, d.isFinite, d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    /// How a skipped entry is named: its id, else its picture, else "entry".
    static func label(_ entry: Any) -> String {
        guard let object = entry as? [String: Any] else { return "entry" }
        if let id = object["id"] as? String, !id.isEmpty { return "campaign \"\(clip(id))\"" }
        if let pic = object["picUrl"] as? String, !pic.isEmpty { return "campaign \"\(clip(pic))\"" }
        return "entry"
    }

    static func clip(_ s: String) -> String { TerminalText.clipped(s) }

    /// A value as a warning quotes it: a string in quotes (clipped), anything else described.
    static func quoted(_ value: Any) -> String {
        if let s = value as? String { return "\"\(clip(s))\"" }
        return describe(value)
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is JSONNull: return "null"
        case is String: return "a string"
        case is [Any]: return "a list"
        case is [String: Any]: return "an object"
        case let b as Bool: return b ? "true" : "false"
        case let n as Int: return String(n)
        case let d as Double: return JSONValue.double(d).encoded()
        default: return "\(type(of: value))"
        }
    }
}
