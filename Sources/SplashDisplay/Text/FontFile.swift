import CHarfBuzz
import Glibc

/// A font file mapped into memory once, read-only, from which FreeType opens its faces.
/// Opened by path, FreeType reads through stdio, seeking and reading a few bytes at a time
/// for every table and every glyph — about 4,700 system calls to open and draw the
/// splash's first frame with a 5 MiB TrueType collection, most of the console kiosk's
/// start-up under emulation. Mapped, those reads are memory; only the pages touched are
/// loaded, and they are the page cache's, shared with every other reader of the file.
final class FontFile {
    let path: String
    private let base: UnsafeMutableRawPointer?
    private let size: Int
    /// The faces opened from the file, by index in it (a collection has several).
    private var faces: [Int: TypeFace] = [:]

    /// Maps `path`; a file that cannot be mapped is opened by path instead.
    init(path: String) {
        self.path = path
        var mapped: UnsafeMutableRawPointer?
        var length = 0
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            var st = stat()
            if fstat(fd, &st) == 0, st.st_size > 0, st.st_size < Int(Int32.max) {
                let address = mmap(nil, Int(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0)
                if let address, address != MAP_FAILED {
                    mapped = address
                    length = Int(st.st_size)
                }
            }
            close(fd)
        }
        base = mapped
        size = length
    }

    deinit {
        // The faces read from the mapping: they go first.
        faces.removeAll()
        if let base { munmap(base, size) }
    }

    /// The face at `index` of the file, opened once with `library`; nil when FreeType cannot
    /// read it (with why).
    func face(index: Int, library: FT_Library) -> Result<TypeFace, FontError> {
        if let known = faces[index] { return .success(known) }
        var face: FT_Face?
        let error: FT_Error = if let base {
            FT_New_Memory_Face(library, base.assumingMemoryBound(to: FT_Byte.self), FT_Long(size), FT_Long(index), &face)
        } else {
            FT_New_Face(library, path, FT_Long(index), &face)
        }
        guard error == 0, let face else { return .failure(FontError(path: path, code: error)) }
        let opened = TypeFace(face)
        faces[index] = opened
        return .success(opened)
    }
}

/// A font file FreeType could not read.
struct FontError: Error {
    var path: String
    var code: FT_Error

    /// FreeType's words for it.
    var reason: String {
        if let words = FT_Error_String(code) { return String(cString: words) }
        return code == 0 ? "it could not be opened" : "FreeType error \(code)"
    }
}
