/// The known name a mistyped one was most likely meant to be: the same letters in another
/// case (`linkURL` for `linkUrl`), or at most two letters added, left out, changed or
/// swapped (`contdown` for `countdown`), so that an error can say "did you mean …?".
public enum NearestName {
    /// The nearest of `known` to `name`, or nil when none is near enough (or `name` is one).
    public static func suggestion(for name: String, among known: [String]) -> String? {
        guard !known.contains(name) else { return nil }
        let folded = name.lowercased()
        if let same = known.first(where: { $0.lowercased() == folded }) { return same }
        let limit = folded.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(folded, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// " (did you mean `x`?)"-style text, or "" when there is no suggestion.
    public static func hint(for name: String, among known: [String]) -> String {
        suggestion(for: name, among: known).map { "; did you mean \($0)?" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of neighbours each count one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        if abs(a.count - b.count) > 3 { return abs(a.count - b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, rows[i - 2][j - 2] + 1) }
                rows[i][j] = d
            }
        }
        return rows[a.count][b.count]
    }
}
