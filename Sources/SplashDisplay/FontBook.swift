import CSDL2
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
    private var fonts: [Key: OpaquePointer] = [:]
    /// Other installed faces, for the characters the family has no glyph for (Arabic, a
    /// symbol): looked up with fontconfig only when such a character is drawn.
    private let finder = GlyphFinder()
    private var fallbacks: [FallbackKey: OpaquePointer] = [:]
    /// Whether the family has a glyph for a character, by character.
    private var provided: [UInt32: Bool] = [:]
    /// The font files opened, mapped once each.
    private let files: FontFiles

    private struct Key: Hashable {
        var size: Int
        var bold: Bool
    }

    private struct FallbackKey: Hashable {
        var path: String
        var index: Int
        var size: Int
        var script: String?
    }

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
        if TTF_WasInit() == 0, TTF_Init() != 0 {
            throw DisplayError.sdl("TTF_Init", sdlErrorText())
        }
        let files = FontFiles()
        self.files = files
        // A bold face that cannot draw 跳过 is no bold face for these screens.
        boldFace = bold.flatMap { b in
            guard let probe = files.file(b.path).face(size: 24, index: b.index) else { return nil }
            defer { TTF_CloseFont(probe) }
            return FontLocator.required.allSatisfy { TTF_GlyphIsProvided32(probe, $0) != 0 } ? b : nil
        }
        guard let probe = files.file(face.path).face(size: 24, index: face.index) else {
            throw DisplayError.badFont(path: face.path, reason: sdlErrorText())
        }
        defer { TTF_CloseFont(probe) }
        for ch in FontLocator.required where TTF_GlyphIsProvided32(probe, ch) == 0 {
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

    deinit {
        for font in fonts.values { TTF_CloseFont(font) }
        for font in fallbacks.values { TTF_CloseFont(font) }
    }

    /// Whether the family has a glyph for every character of `text` (one it lacks is drawn
    /// in another installed face that has it, or as an empty box where none has).
    public func hasGlyphs(for text: String) -> Bool {
        text.unicodeScalars.allSatisfy { familyHas($0.value) }
    }

    private func familyHas(_ scalar: UInt32) -> Bool {
        if let known = provided[scalar] { return known }
        let has = font(size: 24).map { TTF_GlyphIsProvided32($0, scalar) != 0 } ?? false
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
    private func font(for run: Run, size: Int, bold: Bool) -> OpaquePointer? {
        guard let other = run.face else { return font(size: size, bold: bold) }
        let key = FallbackKey(path: other.path, index: other.index, size: max(6, size), script: run.rightToLeftScript)
        if let f = fallbacks[key] { return f }
        guard let f = files.file(other.path).face(size: Int32(key.size), index: other.index) else { return font(size: size, bold: bold) }
        TTF_SetFontHinting(f, TTF_HINTING_LIGHT)
        if let script = key.script {
            _ = TTF_SetFontDirection(f, TTF_DIRECTION_RTL)
            _ = TTF_SetFontScriptName(f, script)
        }
        fallbacks[key] = f
        return f
    }

    /// The font at `size` pixels, bold or regular.
    public func font(size: Int, bold: Bool = false) -> OpaquePointer? {
        let key = Key(size: max(6, size), bold: bold && boldFace != nil)
        if let f = fonts[key] { return f }
        let source = key.bold ? boldFace ?? face : face
        guard let f = files.file(source.path).face(size: Int32(key.size), index: source.index) else { return nil }
        TTF_SetFontHinting(f, TTF_HINTING_LIGHT)
        fonts[key] = f
        return f
    }

    /// Width in pixels of `text` drawn at `size`.
    public func width(of text: String, size: Int, bold: Bool = false) -> Int {
        guard !text.isEmpty else { return 0 }
        return runs(of: text).reduce(0) { sum, run in
            guard let f = font(for: run, size: size, bold: bold) else { return sum }
            var w: Int32 = 0
            var h: Int32 = 0
            TTF_SizeUTF8(f, run.text, &w, &h)
            return sum + Int(w)
        }
    }

    /// Height of one line at `size` (the font's line skip).
    public func lineHeight(size: Int, bold: Bool = false) -> Int {
        guard let f = font(size: size, bold: bold) else { return size }
        return Int(TTF_FontLineSkip(f))
    }

    /// A surface with `text` drawn anti-aliased in `color` on transparency; nil for empty text.
    func render(_ text: String, size: Int, bold: Bool, color: SDL_Color) -> UnsafeMutablePointer<SDL_Surface>? {
        guard !text.isEmpty, let own = font(size: size, bold: bold) else { return nil }
        let runs = runs(of: text)
        if runs.count == 1 && runs[0].face == nil { return TTF_RenderUTF8_Blended(own, text, color) }
        // Each run drawn in its face, then set side by side on the family's baseline.
        let pieces: [(surface: UnsafeMutablePointer<SDL_Surface>, ascent: Int32)] = runs.compactMap { run in
            guard let f = font(for: run, size: size, bold: bold), let surface = TTF_RenderUTF8_Blended(f, run.text, color)
            else { return nil }
            return (surface, TTF_FontAscent(f))
        }
        defer { pieces.forEach { SDL_FreeSurface($0.surface) } }
        let width = pieces.reduce(Int32(0)) { $0 + $1.surface.pointee.w }
        // On the baseline of the tallest face, as tall as the tallest piece reaches below it:
        // no face's accents or descenders are cut.
        let ascent = pieces.map(\.ascent).max() ?? TTF_FontAscent(own)
        let height = max(TTF_FontHeight(own), pieces.map { ascent - $0.ascent + $0.surface.pointee.h }.max() ?? 0)
        guard width > 0,
              let line = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { return nil }
        var x: Int32 = 0
        for piece in pieces {
            SDL_SetSurfaceBlendMode(piece.surface, SDL_BLENDMODE_NONE)
            var to = SDL_Rect(x: x, y: ascent - piece.ascent, w: piece.surface.pointee.w, h: piece.surface.pointee.h)
            SDL_UpperBlit(piece.surface, nil, line, &to)
            x += piece.surface.pointee.w
        }
        return line
    }
}
