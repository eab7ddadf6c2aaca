/// Counts in words: "1 campaign", "3 campaigns".
public enum Plural {
    /// `count` and `noun`, with an s unless the count is one (or `plural` for irregular nouns).
    public static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
