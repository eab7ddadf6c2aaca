/// The font files a `FontBook` has opened, each mapped once (`FontFile`) and kept as long as
/// the book and its faces are.
final class FontFiles {
    private var byPath: [String: FontFile] = [:]

    /// The file at `path`, mapped the first time it is asked for.
    func file(_ path: String) -> FontFile {
        if let known = byPath[path] { return known }
        let opened = FontFile(path: path)
        byPath[path] = opened
        return opened
    }
}
