import Glibc
import FoundationEssentials
import SplashCore
import SplashPictures
import SplashServices

/// Decoded pictures shared by everything a canvas draws on (the screen and frames drawn
/// ahead): pictures still decoding on another thread, opaque pictures kept as decoded
/// pixels (blitted straight onto frames drawn in software), and pictures' sizes read from
/// their headers. Textures are not kept here: they belong to one renderer, and each
/// `Surface` keeps its own.
final class PictureShelf {
    /// Pictures decoding on another thread, by path, until a frame needs them.
    private var pending: [String: PendingPicture] = [:]
    /// Opaque pictures as decoded, by path, while their screen is up.
    private(set) var decoded: [String: DecodedPicture] = [:]
    /// Pictures' sizes, by path, read from their headers.
    private var sizes: [String: Size] = [:]
    /// Pictures' kinds, by path, read with their sizes.
    private var kinds: [String: ImageHeader.Kind] = [:]
    /// Which file each path was when it was read (device, inode, size, modification time):
    /// a picture replaced in the cache under the same name is told from the one kept.
    private var identities: [String: [Int]] = [:]

    /// Which file is at `path` now; nil when none.
    static func identity(of path: String) -> [Int]? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return [Int(st.st_dev), Int(st.st_ino), Int(st.st_size), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec)]
    }

    /// Hands over a picture already decoding, for the frame that will show it.
    func handOver(_ picture: PendingPicture) {
        pending[picture.path] = picture
        if identities[picture.path] == nil { identities[picture.path] = Self.identity(of: picture.path) }
    }

    /// The size of the picture at `path`, read from its header (nothing is decoded).
    func size(of path: String) throws -> Size {
        if let known = sizes[path] { return known }
        // Which file it is, taken before it is read: one replaced meanwhile is told apart later.
        let identity = Self.identity(of: path)
        let header: ImageHeader
        do {
            header = try ImageHeader.read(fromFile: path)
        } catch {
            throw DisplayError.badImage(path: path, reason: error.explained)
        }
        let size = Size(width: header.width, height: header.height)
        if identities[path] == nil { identities[path] = identity }
        sizes[path] = size
        kinds[path] = header.kind
        return size
    }

    /// Whether the picture at `path` may have transparent pixels (anything but a JPEG), once
    /// its size has been read.
    func mayBeTransparent(_ path: String) -> Bool {
        kinds[path].map { $0 != .jpeg } ?? true
    }

    /// Decodes the picture at `path` with at least `scale` pixels per pixel of the original
    /// (or takes it from the thread that decoded it ahead, when that one is large enough);
    /// the pixels are the caller's to keep.
    func decode(_ path: String, scale: Double) throws -> DecodedPixmap {
        do {
            if let early = pending.removeValue(forKey: path) {
                let decoded = try early.take()
                if decoded.scale + 1e-9 >= min(1, scale) { return decoded }
                // Decoded for a smaller screen than this one: let go.
            }
            return try ImageDecoder.pixmap(path, scale: scale)
        } catch {
            throw DisplayError.badImage(path: path, reason: error.explained)
        }
    }

    /// Whether the picture at `path` is decoding on another thread, for a frame to take.
    func isDecoding(_ path: String) -> Bool { pending[path] != nil }

    /// Waits for the picture at `path` decoding on another thread: nil when it decoded (it
    /// stays for the frame that takes it), else why not (it is let go). Nil too when it is
    /// not decoding (kept decoded, or never asked for).
    func problem(decoding path: String) -> String? {
        guard let picture = pending[path], let error = picture.failure else { return nil }
        pending[path] = nil
        return (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }

    /// Keeps an opaque picture as decoded.
    func keep(_ picture: DecodedPicture, for path: String) {
        decoded[path] = picture
    }

    /// Lets go of every picture other than `paths`, decoded or decoding.
    func release(except paths: Set<String>) {
        pending = pending.filter { paths.contains($0.key) }
        decoded = decoded.filter { paths.contains($0.key) }
        sizes = sizes.filter { paths.contains($0.key) }
        kinds = kinds.filter { paths.contains($0.key) }
        identities = identities.filter { paths.contains($0.key) }
    }

    /// Lets go of every picture whose file was replaced or removed since it was read (a
    /// picture changed on its server and fetched again); the paths let go of. Read again,
    /// the new file is shown.
    func forgetChanged() -> Set<String> {
        let changed = Set(identities.filter { Self.identity(of: $0.key) != $0.value }.keys)
        guard !changed.isEmpty else { return [] }
        release(except: Set(identities.keys).union(pending.keys).union(decoded.keys).subtracting(changed))
        return changed
    }
}
