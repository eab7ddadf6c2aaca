import Dispatch
import SplashPictures
import SplashServices

/// A picture being decoded on another thread for a frame that will need it soon: the first
/// splash's picture decodes while the output opens (a window, the console's screens).
public final class PendingPicture: @unchecked Sendable {
    /// The picture file being decoded.
    public let path: String
    /// Pixels per pixel of the original it is decoded with (a JPEG may be decoded smaller).
    public let scale: Double
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<DecodedPixmap, Error>?
    private var taken = false

    /// Starts decoding the file at `path`, with at least `scale` pixels per pixel of the
    /// original (1: whole).
    public init(path: String, scale: Double = 1) {
        self.path = path
        self.scale = scale
        SerialWorker.detached(name: "splashboard.decode") { [self] in
            result = Result { try ImageDecoder.pixmap(path, scale: scale) }
            done.signal()
        }
    }

    /// Blocks until the decode has ended (the first frame waits the same way, in `take`).
    public func wait() {
        done.wait()
        done.signal()
    }

    /// Waits for the decode to end: why it failed, or nil when it decoded (the pixels
    /// stay, for `take`).
    var failure: Error? {
        wait()
        if case .failure(let error) = result { return error }
        return nil
    }

    /// Waits for the decode to end; the pixels are then the caller's.
    func take() throws -> DecodedPixmap {
        done.wait()
        taken = true
        return try result!.get()
    }

    deinit {
        guard !taken else { return }
        done.wait()
    }
}
