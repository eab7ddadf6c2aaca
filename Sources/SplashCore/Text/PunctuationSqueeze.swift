/// Chinese punctuation squeezing (the W3C's *Requirements for Chinese Text Layout*, 3.1.6):
/// a full-width mark's glyph takes half its em box — a closing mark (，。、：；！？）」』》 …)
/// the left half, an opening one (（「『《 …) the right — and the other half is blank. Two
/// marks side by side would leave a 1 to 1.5 em gap ("）。"), so the first of the pair gives
/// up its blank half; and a closing mark at a line's end hangs its blank half in the margin
/// (the line is measured to the mark's ink).
///
/// This is the rule by character; the face's own glyphs decide whether the blank half is
/// really there (a face that centres "：" keeps its width).
public enum PunctuationSqueeze {
    /// How a character takes part.
    public enum Kind: Sendable {
        /// Its glyph in the left half, the right half blank.
        case closing
        /// Its glyph in the right half, the left half blank.
        case opening
    }

    static let closing = Set("，。、：；！？）」』》〉】〕〗｝".unicodeScalars)
    static let opening = Set("（「『《〈【〔〖｛".unicodeScalars)

    /// The kind of `scalar`, or nil for everything else.
    public static func kind(of scalar: Unicode.Scalar) -> Kind? {
        if closing.contains(scalar) { return .closing }
        if opening.contains(scalar) { return .opening }
        return nil
    }

    /// The kind of `character` (a mark is one scalar), or nil for everything else.
    public static func kind(of character: Character) -> Kind? {
        character.unicodeScalars.count == 1 ? character.unicodeScalars.first.flatMap { kind(of: $0) } : nil
    }

    /// Whether a mark of `first` kind followed by one of `next` kind is squeezed: a closing
    /// mark before any mark (its blank right half goes), an opening mark before another
    /// opening one (the second's blank left half is drawn over the first's right).
    public static func squeezes(_ first: Kind?, before next: Kind?) -> Bool {
        switch (first, next) {
        case (.closing, .closing?), (.closing, .opening?), (.opening, .opening?): return true
        default: return false
        }
    }

    /// The marks of `text` by their UTF-8 offset (HarfBuzz's cluster numbers for text given
    /// to it as UTF-8).
    public static func marks(in text: String) -> [Int: Kind] {
        var marks: [Int: Kind] = [:]
        var offset = 0
        for scalar in text.unicodeScalars {
            if let kind = kind(of: scalar) { marks[offset] = kind }
            offset += UTF8.width(scalar)
        }
        return marks
    }
}
