import CHarfBuzz

/// The font files a `FontBook` has opened, each mapped once (`FontFile`), with the FreeType
/// library that reads them (one per book: FreeType's objects belong to one thread at a time).
final class FontFiles {
    private var byPath: [String: FontFile] = [:]
    private let library: FT_Library?

    init() {
        var library: FT_Library?
        _ = FT_Init_FreeType(&library)
        self.library = library
    }

    deinit {
        // Faces before the library that made them.
        byPath.removeAll()
        if let library { FT_Done_FreeType(library) }
    }

    /// The face at `index` of the file at `path`, the file mapped the first time it is asked for.
    func face(_ path: String, index: Int) -> Result<TypeFace, FontError> {
        guard let library else { return .failure(FontError(path: path, code: 0)) }
        if let known = byPath[path] { return known.face(index: index, library: library) }
        let opened = FontFile(path: path)
        byPath[path] = opened
        return opened.face(index: index, library: library)
    }
}
