/// Wraps text to a width the way Chinese and Latin text expect: CJK lines may break
/// between any two characters (but not before closing punctuation such as ，。！ or
/// after opening brackets), Latin lines break between words, and a word wider than the
/// line is broken between characters. Explicit newlines are kept.
public enum LineBreaker {
    /// Splits `text` into lines no wider than `maxWidth`, measuring with `measure`
    /// (the width in pixels of a string as the font draws it). With `maxLines`, it stops
    /// once one line more than that is made (enough to know the text was cut): the work
    /// is proportional to the text laid out, never to the length of the whole text.
    public static func wrap(_ text: String, maxWidth: Int, maxLines: Int = .max,
                            measure: (String) -> Int) -> [String] {
        var lines: [String] = []
        let limit = maxLines == .max ? Int.max : maxLines + 1
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) where lines.count < limit {
            lines += wrapParagraph(paragraph, maxWidth: maxWidth, limit: limit - lines.count, measure: measure)
        }
        return Array(lines.prefix(limit))
    }

    /// Units longer than this many characters are cut without being measured whole.
    static let measuredWhole = 64

    private static func wrapParagraph(_ text: Substring, maxWidth: Int, limit: Int, measure: (String) -> Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var any = false
        for unit in BreakUnits(text) {
            any = true
            let candidate = current + unit
            if current.isEmpty || measure(trailingTrimmed(candidate)) <= maxWidth {
                current = candidate
            } else {
                lines.append(trailingTrimmed(current))
                current = String(unit.drop { $0 == " " })
            }
            // A unit wider than the line (a long word or URL) is cut between characters, a
            // line's worth at a time: each measurement is of at most one line. A long one is
            // not measured whole first (a feed's million-character word costs no more than
            // the lines shown of it).
            let length = current.count
            if length > 1, length > Self.measuredWhole || measure(trailingTrimmed(current)) > maxWidth {
                var head = ""
                for ch in current {
                    if !head.isEmpty, measure(head + String(ch)) > maxWidth {
                        lines.append(head)
                        head = ""
                        if lines.count >= limit { return lines.map(trimmed) }
                    }
                    head.append(ch)
                }
                current = head
            }
            if lines.count >= limit { return lines.map(trimmed) }
        }
        guard any else { return [""] }
        if !current.isEmpty { lines.append(trimmed(current)) }
        return withoutWidow(lines.map(trimmed), maxWidth: maxWidth, measure: measure)
    }

    /// A paragraph's lines with no widow: when its last line is a single word or Chinese
    /// character (with the punctuation that clings to it), the last word or character of the
    /// line before moves down beside it, if it fits and that line keeps two or more.
    static func withoutWidow(_ lines: [String], maxWidth: Int, measure: (String) -> Int) -> [String] {
        guard lines.count >= 2, let last = lines.last, !last.isEmpty, breakUnits(last).count == 1 else { return lines }
        var before = breakUnits(lines[lines.count - 2])
        guard before.count >= 3, let moved = before.popLast().map(trimmed), let end = moved.last, let start = last.first
        else { return lines }
        let joined = isCJK(end) || isCJK(start) ? moved + last : moved + " " + last
        guard measure(joined) <= maxWidth else { return lines }
        return lines.dropLast(2) + [trimmed(before.joined()), joined]
    }

    /// `text` wrapped into as many lines as at `maxWidth`, each as near the same width as the
    /// breaks allow (a title of two lines is two halves, not a line and a word): the
    /// narrowest width that needs no more lines, never narrower than its widest word.
    public static func balanced(_ text: String, maxWidth: Int, maxLines: Int, measure: (String) -> Int) -> [String] {
        let natural = wrap(text, maxWidth: maxWidth, maxLines: maxLines, measure: measure)
        guard natural.count >= 2, natural.count <= maxLines, text.count <= 400 else { return natural }
        let widestUnit = text.split(separator: "\n").flatMap { breakUnits(String($0)) }.map { measure(trimmed($0)) }.max() ?? 0
        var low = min(maxWidth, widestUnit), high = maxWidth
        while low < high {
            let middle = (low + high) / 2
            if wrap(text, maxWidth: middle, maxLines: maxLines, measure: measure).count <= natural.count {
                high = middle
            } else {
                low = middle + 1
            }
        }
        let even = wrap(text, maxWidth: low, maxLines: maxLines, measure: measure)
        guard isMostlyCJK(text), !text.contains("\n"), let phrased = phrased(text, lines: even.count, maxWidth: maxWidth, measure: measure)
        else { return even }
        return phrased
    }

    /// `text` set in exactly `count` lines no wider than `maxWidth`, its breaks at phrase
    /// boundaries where it can (`isPhraseBoundary`: Chinese has no spaces to break at), and
    /// otherwise as even as it can be, no line under a third of the longest; nil when no
    /// such setting exists. Lines are measured as the sum of their units, then checked whole.
    static func phrased(_ text: String, lines count: Int, maxWidth: Int, measure: (String) -> Int) -> [String]? {
        let units = breakUnits(text)
        let n = units.count
        guard count >= 2, n >= count, n <= 200 else { return nil }
        var starts = [0]
        for unit in units { starts.append(starts.last! + measure(unit)) }
        let target = starts[n] / count
        // cost[k][j]: the least cost of units 0..<j in k lines; from[k][j]: where its last line starts.
        let none = Int.max / 4
        var cost = Array(repeating: Array(repeating: none, count: n + 1), count: count + 1)
        var from = Array(repeating: Array(repeating: 0, count: n + 1), count: count + 1)
        cost[0][0] = 0
        for k in 1...count {
            for j in k...n {
                for i in (k - 1)..<j where cost[k - 1][i] < none {
                    let width = starts[j] - starts[i]
                    if width > maxWidth { continue }
                    // Under a third of the line everything else aims at: not a line, a widow.
                    if width * 3 < target { continue }
                    var c = cost[k - 1][i] + (width - target) * (width - target)
                    if i > 0, !isPhraseBoundary(after: units[i - 1], before: units[i]) { c += 1_000_000_000 }
                    if c < cost[k][j] { (cost[k][j], from[k][j]) = (c, i) }
                }
            }
        }
        guard cost[count][n] < none else { return nil }
        var lines: [String] = []
        var j = n
        for k in stride(from: count, to: 0, by: -1) {
            let i = from[k][j]
            lines.insert(trimmed(units[i..<j].joined()), at: 0)
            j = i
        }
        return lines.allSatisfy({ measure($0) <= maxWidth }) ? lines : nil
    }

    /// Whether a line break between `line` and `next` falls where Chinese allows a phrase to
    /// end: after punctuation or a space, before a joining word (暨 与 和 及 或 并 之), or
    /// between a Chinese character and a Latin word or number.
    public static func isPhraseBoundary(after line: String, before next: String) -> Bool {
        guard let last = line.last(where: { !$0.isWhitespace }), let first = next.first(where: { !$0.isWhitespace }) else { return true }
        if line.last?.isWhitespace == true || "，、：；。！？）」』”·—…,:;.!?)".contains(last) { return true }
        if "暨与和及或并之".contains(first) { return true }
        return !(isCJK(last) && isCJK(first))
    }

    /// Whether `text` is set as Chinese (for line heights and the ellipsis): a third or more
    /// of its letters are CJK.
    public static func isMostlyCJK(_ text: String) -> Bool {
        var cjk = 0, all = 0
        for ch in text.prefix(2000) where !ch.isWhitespace {
            all += 1
            if isCJK(ch) { cjk += 1 }
        }
        return all > 0 && cjk * 3 >= all
    }

    /// Pieces that must stay on one line: a CJK character (with punctuation that may not be
    /// separated from it), or a Latin word with the spaces after it.
    static func breakUnits(_ text: String) -> [String] {
        Array(BreakUnits(Substring(text)))
    }

    /// The break units of a text, made one at a time as the wrapping asks for them. The
    /// last unit made can still grow (closing punctuation or a space joins it), so one is
    /// always held back until the next is made or the text ends.
    struct BreakUnits: Sequence, IteratorProtocol {
        private var rest: Substring
        private var units: [String] = []
        private var word = ""
        private var pendingOpeners = ""
        private var finished = false

        init(_ text: Substring) { rest = text }

        mutating func next() -> String? {
            while units.count < 2, !finished {
                guard let ch = rest.first else {
                    flushWord()
                    if !pendingOpeners.isEmpty { units.append(pendingOpeners) }
                    finished = true
                    break
                }
                rest = rest.dropFirst()
                take(ch)
            }
            return units.isEmpty || (units.count < 2 && !finished) ? nil : units.removeFirst()
        }

        private mutating func flushWord() {
            if !word.isEmpty { units.append(pendingOpeners + word); pendingOpeners = ""; word = "" }
        }

        private mutating func take(_ ch: Character) {
            if LineBreaker.isCJK(ch) || noBreakBefore.contains(ch) || noBreakAfter.contains(ch) {
                if noBreakBefore.contains(ch) {
                    // Closing punctuation joins whatever precedes it.
                    if !word.isEmpty { word.append(ch); return }
                    if let last = units.popLast() { units.append(last + String(ch)) } else { units.append(String(ch)) }
                    return
                }
                flushWord()
                if noBreakAfter.contains(ch) { pendingOpeners.append(ch); return }
                units.append(pendingOpeners + String(ch))
                pendingOpeners = ""
            } else if ch == " " || ch == "\t" {
                if word.isEmpty, let last = units.popLast() {
                    units.append(last + " ")
                } else {
                    word.append(" ")
                    flushWord()
                }
            } else {
                if word.hasSuffix(" ") { flushWord() }
                word.append(ch)
            }
        }
    }

    /// Characters that may end a line but not start one.
    static let noBreakBefore: Set<Character> = Set("，。、．！？：；）」』》〉】〕〗｝’”…—·,.!?:;)]}%")
    /// Characters that may start a line but not end one.
    static let noBreakAfter: Set<Character> = Set("（「『《〈【〔〖｛‘“([{")

    /// Ideographs, kana, hangul and full-width forms: a line may break on either side.
    public static func isCJK(_ ch: Character) -> Bool {
        guard let v = ch.unicodeScalars.first?.value else { return false }
        switch v {
        case 0x2E80...0x2FDF, 0x3000...0x303F, 0x3040...0x30FF, 0x3100...0x312F, 0x3190...0x31FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFFEF, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// `s` without spaces or tabs at either end.
    static func trimmed(_ s: String) -> String {
        var s = Substring(s)
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        return String(s)
    }

    private static func trailingTrimmed(_ s: String) -> String {
        var s = Substring(s)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
