import CSDL2
import Dispatch
import SplashServices

/// A picture being decoded on another thread for a frame that will need it soon: the first
/// splash's picture decodes while SDL opens the window.
public final class PendingPicture: @unchecked Sendable {
    public let path: String
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<UnsafeMutablePointer<SDL_Surface>, Error>?
    private var taken = false

    /// Starts decoding the file at `path`.
    public init(path: String) {
        self.path = path
        SerialWorker.detached(name: "splashboard.decode") { [self] in
            result = Result { try ImageDecoder.load(path) }
            done.signal()
        }
    }

    /// Blocks until the decode has ended (the first frame waits the same way, in `take`).
    public func wait() {
        done.wait()
        done.signal()
    }

    /// Waits for the decode to end; the surface is then the caller's to free.
    func take() throws -> UnsafeMutablePointer<SDL_Surface> {
        done.wait()
        taken = true
        return try result!.get()
    }

    deinit {
        guard !taken else { return }
        done.wait()
        if case .success(let surface) = result { SDL_FreeSurface(surface) }
    }
}
