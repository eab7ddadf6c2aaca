import CFontconfig

/// Which installed font draws a character, asked of fontconfig: the face the kiosk falls
/// back to for a character its own font lacks, and whether a feed's text can be drawn on
/// this device at all. fontconfig's configuration (several milliseconds and megabytes) is
/// loaded at the first question, not before; each character is looked up once.
public final class GlyphFinder {
    private var loaded = false
    private var config: OpaquePointer?
    private var sorted: UnsafeMutablePointer<FcFontSet>?
    /// The installed faces in fontconfig's order of preference for sans-serif text, each
    /// with the characters it covers (owned by `sorted`).
    private var faces: [(face: FontFace, charset: OpaquePointer)] = []
    private var found: [UInt32: FontFace?] = [:]

    /// A finder that has not loaded fontconfig yet.
    public init() {}

    deinit {
        if let sorted { FcFontSetDestroy(sorted) }
        if let config { FcConfigDestroy(config) }
    }

    /// The first face, in fontconfig's order for sans-serif text, with a glyph for
    /// `scalar`; nil when no installed font has one.
    public func face(for scalar: UInt32) -> FontFace? {
        if let known = found[scalar] { return known }
        load()
        let face = faces.first { FcCharSetHasChar($0.charset, scalar) != 0 }?.face
        found[scalar] = face
        return face
    }

    /// Whether any installed font can draw `scalar`.
    public func canDraw(_ scalar: Unicode.Scalar) -> Bool {
        face(for: scalar.value) != nil
    }

    private func load() {
        guard !loaded else { return }
        loaded = true
        guard let config = FcInitLoadConfigAndFonts() else { return }
        self.config = config
        guard let pattern = FcNameParse("sans-serif") else { return }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        // Untrimmed: every installed font, the best matches for sans-serif first.
        guard let set = FcFontSort(config, pattern, FcFalse, nil, &result) else { return }
        sorted = set
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var charset: OpaquePointer?
            guard FcPatternGetString(font, splash_fc_file(), 0, &file) == FcResultMatch, let file,
                  FcPatternGetCharSet(font, splash_fc_charset(), 0, &charset) == FcResultMatch, let charset else { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, splash_fc_index(), 0, &index)
            let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
            faces.append((FontFace(path: path, index: Int(index)), charset))
        }
    }
}
