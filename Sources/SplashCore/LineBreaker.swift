/// Wraps text to a width the way Chinese and Latin text expect: CJK lines may break
/// between any two characters (but not before closing punctuation such as ，。！ or
/// after opening brackets), Latin lines break between words, and a word wider than the
/// line is broken between characters. Explicit newlines are kept.
public enum LineBreaker {
    /// Splits `text` into lines no wider than `maxWidth`, measuring with `measure`
    /// (the width in pixels of a string as the font draws it).
    public static func wrap(_ text: String, maxWidth: Int, measure: (String) -> Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += wrapParagraph(String(paragraph), maxWidth: maxWidth, measure: measure)
        }
        return lines
    }

    private static func wrapParagraph(_ text: String, maxWidth: Int, measure: (String) -> Int) -> [String] {
        let units = breakUnits(text)
        guard !units.isEmpty else { return [""] }
        var lines: [String] = []
        var current = ""
        for unit in units {
            let candidate = current + unit
            if current.isEmpty || measure(trailingTrimmed(candidate)) <= maxWidth {
                current = candidate
            } else {
                lines.append(trailingTrimmed(current))
                current = String(unit.drop { $0 == " " })
            }
            // A single unit wider than the line (a long word or URL) is cut between characters.
            while measure(trailingTrimmed(current)) > maxWidth, current.count > 1 {
                var head = ""
                for ch in current {
                    if !head.isEmpty, measure(head + String(ch)) > maxWidth { break }
                    head.append(ch)
                }
                lines.append(head)
                current = String(current.dropFirst(head.count))
            }
        }
        if !current.isEmpty { lines.append(trailingTrimmed(current)) }
        return lines
    }

    /// Pieces that must stay on one line: a CJK character (with punctuation that may not be
    /// separated from it), or a Latin word with the spaces after it.
    static func breakUnits(_ text: String) -> [String] {
        var units: [String] = []
        var word = ""
        var pendingOpeners = ""
        func flushWord() {
            if !word.isEmpty { units.append(pendingOpeners + word); pendingOpeners = ""; word = "" }
        }
        for ch in text {
            if isCJK(ch) || noBreakBefore.contains(ch) || noBreakAfter.contains(ch) {
                if noBreakBefore.contains(ch) {
                    // Closing punctuation joins whatever precedes it.
                    if !word.isEmpty { word.append(ch); continue }
                    if let last = units.popLast() { units.append(last + String(ch)) } else { units.append(String(ch)) }
                    continue
                }
                flushWord()
                if noBreakAfter.contains(ch) { pendingOpeners.append(ch); continue }
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
        flushWord()
        if !pendingOpeners.isEmpty { units.append(pendingOpeners) }
        return units
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

    private static func trailingTrimmed(_ s: String) -> String {
        var s = Substring(s)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
