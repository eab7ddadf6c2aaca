import CSDL2
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

    private struct Key: Hashable {
        var size: Int
        var bold: Bool
    }

    /// Opens `face` once to check it can draw 跳过; throws a clear error when it cannot.
    public init(face: FontFace, bold: FontFace? = nil) throws {
        self.face = face
        if TTF_WasInit() == 0, TTF_Init() != 0 {
            throw DisplayError.sdl("TTF_Init", sdlErrorText())
        }
        // A bold face that cannot draw 跳过 is no bold face for these screens.
        boldFace = bold.flatMap { b in
            guard let probe = TTF_OpenFontIndex(b.path, 24, b.index) else { return nil }
            defer { TTF_CloseFont(probe) }
            return FontLocator.required.allSatisfy { TTF_GlyphIsProvided32(probe, $0) != 0 } ? b : nil
        }
        guard let probe = TTF_OpenFontIndex(face.path, 24, face.index) else {
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
    }

    /// Whether the font has a glyph for every character of `text` (one it lacks is drawn
    /// as an empty box).
    public func hasGlyphs(for text: String) -> Bool {
        guard let font = font(size: 24) else { return false }
        return text.unicodeScalars.allSatisfy { TTF_GlyphIsProvided32(font, $0.value) != 0 }
    }

    /// The font at `size` pixels, bold or regular.
    public func font(size: Int, bold: Bool = false) -> OpaquePointer? {
        let key = Key(size: max(6, size), bold: bold && boldFace != nil)
        if let f = fonts[key] { return f }
        let source = key.bold ? boldFace ?? face : face
        guard let f = TTF_OpenFontIndex(source.path, Int32(key.size), source.index) else { return nil }
        TTF_SetFontHinting(f, TTF_HINTING_LIGHT)
        fonts[key] = f
        return f
    }

    /// Width in pixels of `text` drawn at `size`.
    public func width(of text: String, size: Int, bold: Bool = false) -> Int {
        guard !text.isEmpty, let f = font(size: size, bold: bold) else { return 0 }
        var w: Int32 = 0
        var h: Int32 = 0
        TTF_SizeUTF8(f, text, &w, &h)
        return Int(w)
    }

    /// Height of one line at `size` (the font's line skip).
    public func lineHeight(size: Int, bold: Bool = false) -> Int {
        guard let f = font(size: size, bold: bold) else { return size }
        return Int(TTF_FontLineSkip(f))
    }

    /// A surface with `text` drawn anti-aliased in `color` on transparency; nil for empty text.
    func render(_ text: String, size: Int, bold: Bool, color: SDL_Color) -> UnsafeMutablePointer<SDL_Surface>? {
        guard !text.isEmpty, let f = font(size: size, bold: bold) else { return nil }
        return TTF_RenderUTF8_Blended(f, text, color)
    }
}
