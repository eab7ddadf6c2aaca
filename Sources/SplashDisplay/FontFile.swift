import CSDL2
import Glibc

/// A font file mapped into memory once, read-only, from which SDL_ttf opens its faces at
/// every size. Opened by path instead, SDL_ttf reads through stdio: FreeType seeks and reads
/// a few bytes at a time for every table and every glyph — about 4,700 system calls to open
/// and draw the splash's first frame with a 5 MiB TrueType collection, most of the console
/// kiosk's start-up under emulation. Mapped, those reads are memory; only the pages touched
/// are loaded, and they are the page cache's, shared with every other reader of the file.
final class FontFile {
    let path: String
    private let base: UnsafeMutableRawPointer?
    private let size: Int

    /// Maps `path`; a file that cannot be mapped is opened by path at each size instead.
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
        if let base { munmap(base, size) }
    }

    /// The face at `index` of the file at `pixels` size, or nil with SDL's error set.
    func face(size pixels: Int32, index: Int) -> OpaquePointer? {
        guard let base, let stream = SDL_RWFromConstMem(base, Int32(size)) else {
            return TTF_OpenFontIndex(path, pixels, index)
        }
        // The stream is freed with the font; the mapping lives as long as this file.
        return TTF_OpenFontIndexRW(stream, 1, pixels, index)
    }
}
