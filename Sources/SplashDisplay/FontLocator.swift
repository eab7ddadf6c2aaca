import CFontconfig
import Foundation

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

    /// Where the kiosk remembers its font: a small file in the cache folder.
    public static func memo(inCache folder: String) -> String { folder + "/font" }

    /// The face written by `remember(_:in:)`, when its file is still there. Looking the font
    /// up loads fontconfig's whole configuration, several milliseconds and megabytes at every
    /// start; the answer rarely changes, so the kiosk keeps it and checks it (`FontBook`).
    public static func remembered(in file: String) -> FontFace? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let parts = text.split(separator: "\n")
        guard parts.count == 2, let index = Int(parts[1]), parts[0].hasPrefix("/"),
              FileManager.default.fileExists(atPath: String(parts[0]))
        else { return nil }
        return FontFace(path: String(parts[0]), index: index)
    }

    /// Keeps `face` in `file` for the next start (best effort: a lookup is only slower).
    public static func remember(_ face: FontFace, in file: String) {
        let folder = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? "\(face.path)\n\(face.index)\n".write(toFile: file, atomically: true, encoding: .utf8)
    }

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
