import CSDL2
import Dispatch
import SplashPictures
import SplashServices

/// A picture being decoded on another thread for a frame that will need it soon: the first
/// splash's picture decodes while SDL opens the window.
public final class PendingPicture: @unchecked Sendable {
    /// The picture file being decoded.
    public let path: String
    /// Pixels per pixel of the original it is decoded with (a JPEG may be decoded smaller).
    public let scale: Double
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<DecodedSurface, Error>?
    private var taken = false

    /// Starts decoding the file at `path`, with at least `scale` pixels per pixel of the
    /// original (1: whole).
    public init(path: String, scale: Double = 1) {
        self.path = path
        self.scale = scale
        SerialWorker.detached(name: "splashboard.decode") { [self] in
            result = Result { try ImageDecoder.surface(path, scale: scale) }
            done.signal()
        }
    }

    /// Blocks until the decode has ended (the first frame waits the same way, in `take`).
    public func wait() {
        done.wait()
        done.signal()
    }

    /// Waits for the decode to end: why it failed, or nil when it decoded (the surface
    /// stays, for `take`).
    var failure: Error? {
        wait()
        if case .failure(let error) = result { return error }
        return nil
    }

    /// Waits for the decode to end; the surface is then the caller's to free.
    func take() throws -> DecodedSurface {
        done.wait()
        taken = true
        return try result!.get()
    }

    deinit {
        guard !taken else { return }
        done.wait()
        if case .success(let decoded) = result { SDL_FreeSurface(decoded.surface) }
    }
}
