import Dispatch
import SplashFonts
import SplashServices

/// Opened fonts of one family at the sizes the screens need, regular and bold. Bold is the
/// family's own bold face where the system has one; where it has none, "bold" text is drawn
/// in the regular face (hierarchy by size and colour) — never emboldened by FreeType, which
/// fills the counters of CJK glyphs (口 becomes a block) at display sizes.
public final class FontBook {
    /// The family's regular face, also used for bold text when it has no bold face.
    public let face: FontFace
    /// The family's bold face, when it has one.
    public let boldFace: FontFace?
    /// Other installed faces, for the characters the family has no glyph for (Arabic, a
    /// symbol): looked up with fontconfig only when such a character is drawn.
    private let finder = GlyphFinder()
    /// Whether the family has a glyph for a character, by character.
    private var provided: [UInt32: Bool] = [:]
    /// The font files opened, mapped once each.
    private let files: FontFiles
    /// Text being drawn ahead on another thread (`warmUp`): everything asked of the book
    /// waits for it first, so that only one thread ever uses it at a time.
    private var warming: DispatchSemaphore?

    /// A piece of a line drawn by one face: the family's (`face` nil) or another's.
    private struct Run {
        var text: String
        var face: FontFace?

        /// The right-to-left script the run is written in (ISO 15924, as HarfBuzz names it),
        /// when it is: shaped and laid out from the right, so that its letters join and its
        /// words read in their order.
        var rightToLeftScript: String? {
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x0590...0x05FF, 0xFB1D...0xFB4F: return "Hebr"
                case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return "Arab"
                default: continue
                }
            }
            return nil
        }
    }

    /// Opens `face` once to check it can draw 跳过; throws a clear error when it cannot.
    public init(face: FontFace, bold: FontFace? = nil) throws {
        self.face = face
        let files = FontFiles()
        self.files = files
        // A bold face that cannot draw 跳过 is no bold face for these screens.
        boldFace = bold.flatMap { b in
            guard case .success(let probe) = files.face(b.path, index: b.index) else { return nil }
            return FontLocator.required.allSatisfy { probe.hasGlyph($0) } ? b : nil
        }
        let probe: TypeFace
        switch files.face(face.path, index: face.index) {
        case .success(let opened): probe = opened
        case .failure(let error): throw DisplayError.badFont(path: face.path, reason: error.reason)
        }
        for ch in FontLocator.required where !probe.hasGlyph(ch) {
            throw DisplayError.badFont(path: face.path,
                                       reason: "it has no glyph for \"\(Character(Unicode.Scalar(ch)!))\"; choose a Chinese font")
        }
    }

    /// The kiosk's fonts: `font` when the operator named one (with its family's bold, if
    /// fontconfig knows it), else the Chinese font fontconfig chose last time (kept in
    /// `memo`) if it still draws 跳过, else a new lookup, remembered.
    public static func located(font: String?, memo: String?) throws -> FontBook {
        if let memo, let kept = FontLocator.remembered(in: memo), font == nil || kept.regular == FontFace(path: font!, index: 0),
           let book = try? FontBook(face: kept.regular, bold: kept.bold) {
            return book
        }
        if let font {
            // The operator's font, and its family's bold face, looked up once and remembered.
            let face = FontFace(path: font, index: 0)
            let book = try FontBook(face: face, bold: FontLocator.boldFace(of: face))
            if let memo { FontLocator.remember(face, bold: book.boldFace, in: memo) }
            return book
        }
        let (face, bold) = try FontLocator.chineseFaces(withBold: true)
        let book = try FontBook(face: face, bold: bold)
        if let memo { FontLocator.remember(face, bold: book.boldFace, in: memo) }
        return book
    }

    /// Whether the family has a glyph for every character of `text` (one it lacks is drawn
    /// in another installed face that has it, or as an empty box where none has).
    public func hasGlyphs(for text: String) -> Bool {
        settle()
        return text.unicodeScalars.allSatisfy { familyHas($0.value) }
    }

    private func familyHas(_ scalar: UInt32) -> Bool {
        if let known = provided[scalar] { return known }
        let has = (try? files.face(face.path, index: face.index).get())?.hasGlyph(scalar) ?? false
        provided[scalar] = has
        return has
    }

    /// `text` cut where the face that draws it changes. A character no face has stays with
    /// the family (an empty box); so do spaces and marks, which join the run before them.
    private func runs(of text: String) -> [Run] {
        if text.unicodeScalars.allSatisfy({ familyHas($0.value) }) { return [Run(text: text, face: nil)] }
        var runs: [Run] = []
        for character in text {
            let first = character.unicodeScalars.first!.value
            let joins = character.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
            let face: FontFace? = familyHas(first) ? nil : finder.face(for: first)
            if let last = runs.last, joins || last.face == face {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append(Run(text: String(character), face: face))
            }
        }
        return runs
    }

    /// The face at `size` for one run: the family's (bold or regular) or the other face's.
    private func font(for run: Run, size: Int, bold: Bool) -> TypeFace.Sized? {
        guard let other = run.face, let face = try? files.face(other.path, index: other.index).get() else {
            return sized(size: size, bold: bold)
        }
        return face.sized(max(6, size)) ?? sized(size: size, bold: bold)
    }

    /// The font at `size` pixels, bold or regular.
    func font(size: Int, bold: Bool = false) -> TypeFace.Sized? {
        settle()
        return sized(size: size, bold: bold)
    }

    private func sized(size: Int, bold: Bool) -> TypeFace.Sized? {
        let source = bold ? boldFace ?? face : face
        return (try? files.face(source.path, index: source.index).get())?.sized(max(6, size))
    }

    /// A run shaped at `size`: its glyphs, the width of the box that holds their pen
    /// advances and their ink, where the pen starts in that box, and the blank a closing
    /// Chinese mark leaves at its end.
    private func shaped(_ run: Run, size: Int, bold: Bool) -> (font: TypeFace.Sized, glyphs: [TypeFace.Placed], width: Int,
                                                             origin: Int, trailingBlank: Int)? {
        guard let f = font(for: run, size: size, bold: bold) else { return nil }
        let (glyphs, advance, trailing) = f.shape(run.text, script: run.face == nil ? nil : run.rightToLeftScript)
        let left = min(0, glyphs.map { $0.x + $0.glyph.left }.min() ?? 0)
        let right = max(advance, glyphs.map { $0.x + $0.glyph.left + $0.glyph.width }.max() ?? 0)
        return (f, glyphs, right - left, -left, right == advance ? trailing : 0)
    }

    /// Width in pixels of `text` drawn at `size`, as a line is measured: a closing Chinese
    /// mark at its end counts to its ink (its blank half hangs in the margin).
    public func width(of text: String, size: Int, bold: Bool = false) -> Int {
        guard !text.isEmpty else { return 0 }
        settle()
        var width = 0, trailing = 0
        for run in runs(of: text) {
            let piece = shaped(run, size: size, bold: bold)
            width += piece?.width ?? 0
            trailing = piece?.trailingBlank ?? 0
        }
        return width - trailing
    }

    /// Height of one line at `size` (the font's line skip).
    public func lineHeight(size: Int, bold: Bool = false) -> Int {
        font(size: size, bold: bold)?.lineSkip ?? size
    }

    /// The height of the box `render` draws a line of the family's own glyphs in at `size`.
    func textHeight(size: Int, bold: Bool = false) -> Int {
        font(size: size, bold: bold)?.height ?? size
    }

    /// `text` drawn anti-aliased as coverage, each run in its face, side by side on the
    /// baseline of the tallest face and as tall as the tallest piece reaches below it (no
    /// face's accents or descenders are cut); nil for empty text.
    func render(_ text: String, size: Int, bold: Bool) -> TextMask? {
        settle()
        return drawn(text, size: size, bold: bold)
    }

    /// How far below the top of its box (as `render` draws it) the ink of `line` begins at
    /// `size`: what a text is moved by so that its first line's ink, not its line box, stands
    /// on a picture's top line.
    func inkTop(of line: String, size: Int, bold: Bool = false) -> Int {
        guard let mask = render(line, size: size, bold: bold) else { return 0 }
        for row in 0..<mask.height where (0..<mask.width).contains(where: { mask.coverage[row * mask.stride + $0] >= 128 }) {
            return row
        }
        return 0
    }

    /// Draws `text` at `size` on another thread now — the face's tables read, its glyphs
    /// drawn — so that the first frame that draws it (the pill's 跳过 N) does not wait for
    /// them; the book waits for it before anything else is asked of it.
    public func warmUp(_ text: String, size: Int) {
        settle()
        let done = DispatchSemaphore(value: 0)
        warming = done
        SerialWorker.detached(name: "splashboard.fonts") { [self] in
            _ = drawn(text, size: size, bold: false)
            done.signal()
        }
    }

    /// Waits for the text drawn ahead, if any.
    private func settle() {
        guard let warming else { return }
        warming.wait()
        self.warming = nil
    }

    private func drawn(_ text: String, size: Int, bold: Bool) -> TextMask? {
        guard !text.isEmpty, let own = sized(size: size, bold: bold) else { return nil }
        let pieces = runs(of: text).compactMap { shaped($0, size: size, bold: bold) }
        let width = pieces.reduce(0) { $0 + $1.width }
        let ascent = pieces.map(\.font.ascent).max() ?? own.ascent
        let height = max(own.height, pieces.map { ascent + $0.font.descent }.max() ?? 0)
        guard width > 0, height > 0 else { return nil }
        var mask = TextMask(width: width, height: height)
        mask.trailingBlank = pieces.last?.trailingBlank ?? 0
        var x = 0
        for piece in pieces {
            for placed in piece.glyphs {
                mask.add(placed.glyph, x: x + piece.origin + placed.x, baseline: ascent - placed.y)
            }
            x += piece.width
        }
        return mask
    }
}
