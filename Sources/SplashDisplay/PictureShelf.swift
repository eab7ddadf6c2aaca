import CSDL2
import SplashCore
import SplashServices

/// Decoded pictures shared by everything a canvas draws on (the screen and frames drawn
/// ahead): pictures still decoding on another thread, and opaque pictures kept as decoded
/// pixels, blitted straight onto frames drawn in software. Textures are not kept here:
/// they belong to one renderer, and each `Surface` keeps its own.
final class PictureShelf {
    /// Pictures decoding on another thread, by path, until a frame needs them.
    private var pending: [String: PendingPicture] = [:]
    /// Opaque pictures as decoded, by path, while their screen is up.
    private(set) var decoded: [String: (picture: DecodedPicture, size: Size)] = [:]

    /// Hands over a picture already decoding, for the frame that will show it.
    func handOver(_ picture: PendingPicture) {
        pending[picture.path] = picture
    }

    /// Decodes the picture at `path` (or takes it from the thread that decoded it ahead);
    /// the surface is the caller's to free or keep.
    func decode(_ path: String) throws -> UnsafeMutablePointer<SDL_Surface> {
        do {
            if let early = pending.removeValue(forKey: path) { return try early.take() }
            return try ImageDecoder.load(path)
        } catch {
            throw DisplayError.badImage(path: path, reason: error.localizedDescription)
        }
    }

    /// Keeps an opaque picture as decoded.
    func keep(_ picture: DecodedPicture, size: Size, for path: String) {
        decoded[path] = (picture, size)
    }

    /// Lets go of every picture other than `paths`, decoded or decoding.
    func release(except paths: Set<String>) {
        pending = pending.filter { paths.contains($0.key) }
        decoded = decoded.filter { paths.contains($0.key) }
    }
}
