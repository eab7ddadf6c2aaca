import CFontconfig
import FoundationEssentials
import SplashFonts
import SplashServices

/// Finds a font for Chinese text with fontconfig, and checks that it really has the
/// glyphs (fontconfig always answers with *some* font, often a Latin-only one).
public enum FontLocator {
    /// Characters the splash cannot do without: 跳过 and a digit.
    static let required: [UInt32] = [0x8DF3, 0x8FC7, 0x0033]

    /// Where the kiosk remembers its font: a small file of its own in the data folder
    /// (0600; read only when this user wrote it, never one another process put there).
    public static func memo(in folder: String) -> String { folder + "/font" }

    /// The faces written by `remember(_:in:)`, when their files are still there: the
    /// regular one, and the bold one when the family has one. Looking the font up loads
    /// fontconfig's whole configuration, several milliseconds and megabytes at every start;
    /// the answer rarely changes, so the kiosk keeps it and checks it (`FontBook`).
    public static func remembered(in file: String) -> (regular: FontFace, bold: FontFace?)? {
        guard let text = UntrustedFile.ownText(file) else { return nil }
        let parts = text.split(separator: "\n").map(String.init)
        func face(_ at: Int) -> FontFace? {
            guard parts.count >= at + 2, let index = Int(parts[at + 1]), parts[at].hasPrefix("/"),
                  FileManager.default.fileExists(atPath: parts[at]) else { return nil }
            return FontFace(path: parts[at], index: index)
        }
        // Four lines: the regular face, then the bold one or "-" for none. Two lines are
        // from before bold faces were looked for: looked up again.
        guard parts.count == 4, let regular = face(0) else { return nil }
        if parts[2] == "-" { return (regular, nil) }
        guard let bold = face(2) else { return nil }
        return (regular, bold)
    }

    /// Keeps the faces in `file` for the next start (best effort: a lookup is only slower).
    public static func remember(_ face: FontFace, bold: FontFace?, in file: String) {
        let folder = file.deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = "\(face.path)\n\(face.index)\n" + (bold.map { "\($0.path)\n\($0.index)\n" } ?? "-\n-\n")
        UntrustedFile.writeOwn(text, to: file)
    }

    /// The bold face of `regular`'s family, when the system has one as a face of its own
    /// (Noto Sans CJK has; WenQuanYi Micro Hei has one weight, and fontconfig would only
    /// ask FreeType to smear it — which fills the counters of 口 — so nil).
    public static func boldFace(of regular: FontFace) -> FontFace? {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        defer { FcConfigDestroy(config) }
        return boldFace(of: regular, in: config)
    }

    /// `boldFace(of:)` with fontconfig's configuration already loaded.
    private static func boldFace(of regular: FontFace, in config: OpaquePointer) -> FontFace? {
        var count: Int32 = 0
        guard let described = FcFreeTypeQuery(regular.path, UInt32(regular.index), nil, &count) else { return nil }
        defer { FcPatternDestroy(described) }
        var family: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(described, splash_fc_family(), 0, &family) == FcResultMatch, let family,
              let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, splash_fc_family(), family)
        FcPatternAddInteger(pattern, splash_fc_weight(), splash_fc_weight_bold())
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(match, splash_fc_file(), 0, &file) == FcResultMatch, let file else { return nil }
        _ = FcPatternGetInteger(match, splash_fc_index(), 0, &index)
        let face = FontFace(path: String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), index: Int(index))
        // Only a face of its own, of that weight, is a bold one: the regular face asked to be
        // bold (fontconfig's "embolden") is not.
        guard face != regular else { return nil }
        guard let real = FcFreeTypeQuery(face.path, UInt32(face.index), nil, &count) else { return nil }
        defer { FcPatternDestroy(real) }
        var weight: Int32 = 0
        guard FcPatternGetInteger(real, splash_fc_weight(), 0, &weight) == FcResultMatch, weight >= splash_fc_weight_bold()
        else { return nil }
        return face
    }

    /// The best match for `sans-serif:lang=zh-cn` that covers the required glyphs.
    public static func chineseFont() throws -> FontFace {
        try chineseFaces(withBold: false).regular
    }

    /// The Chinese font and, when `withBold`, its family's bold face, looked up with one
    /// load of fontconfig's configuration (several milliseconds and megabytes each).
    public static func chineseFaces(withBold: Bool) throws -> (regular: FontFace, bold: FontFace?) {
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
                let face = FontFace(path: String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)),
                                    index: Int(index))
                return (face, withBold ? boldFace(of: face, in: config) : nil)
            }
        }
        throw DisplayError.noCJKFont("fontconfig has no font with the glyphs 跳过")
    }
}
