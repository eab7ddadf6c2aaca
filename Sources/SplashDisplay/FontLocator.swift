import CFontconfig

/// A font file and the face inside it (for .ttc collections).
public struct FontFace: Equatable {
    public var path: String
    public var index: Int

    public init(path: String, index: Int = 0) {
        self.path = path
        self.index = index
    }
}

/// Finds a font for Chinese text with fontconfig, and checks that it really has the
/// glyphs (fontconfig always answers with *some* font, often a Latin-only one).
public enum FontLocator {
    /// Characters the splash cannot do without: 跳过 and a digit.
    static let required: [UInt32] = [0x8DF3, 0x8FC7, 0x0033]

    /// The best match for `sans-serif:lang=zh-cn` that covers the required glyphs.
    public static func chineseFont() throws -> FontFace {
        guard let config = FcInitLoadConfigAndFonts() else {
            throw DisplayError.noCJKFont("fontconfig could not load its configuration")
        }
        defer { FcConfigDestroy(config) }
        for query in ["sans-serif:lang=zh-cn", "sans-serif:lang=zh", "sans-serif:lang=ja"] {
            guard let pattern = FcNameParse(query) else { continue }
            defer { FcPatternDestroy(pattern) }
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let match = FcFontMatch(config, pattern, &result) else { continue }
            defer { FcPatternDestroy(match) }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(match, splash_fc_file(), 0, &file) == FcResultMatch, let file else { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(match, splash_fc_index(), 0, &index)
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(match, splash_fc_charset(), 0, &charset) == FcResultMatch, let charset else { continue }
            if required.allSatisfy({ FcCharSetHasChar(charset, $0) != 0 }) {
                return FontFace(path: String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)),
                                index: Int(index))
            }
        }
        throw DisplayError.noCJKFont("fontconfig has no font with the glyphs 跳过")
    }
}
