
/// A font file and the face inside it (for .ttc collections).
public struct FontFace: Equatable {
    /// The font file.
    public var path: String
    /// Which face of the file it is, from 0 (0 for a file of one face).
    public var index: Int

    /// The face `index` (from 0) of the font file at `path`.
    public init(path: String, index: Int = 0) {
        self.path = path
        self.index = index
    }
}
