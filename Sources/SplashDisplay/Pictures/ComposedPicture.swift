import Dispatch
import SplashCore
import SplashPictures
import SplashServices

/// The first splash's frame composed on another thread before the kiosk has read its
/// database: the picture the last run expected to show first, decoded
/// by the JPEG decoder at the size it fills on the screen of last time straight into a
/// frame of that size (the background around it, as a splash draws it), so that the first
/// frame is the pill drawn on it — no picture held beside the frame. On a KMS screen the
/// frame is the buffer the first frame is shown from (`Canvas.composeFirst`): no frame in
/// memory and no copy to the screen.
///
/// Only what the splash would draw the same way is composed: a JPEG (not CMYK) drawn whole,
/// at one of the decoder's DCT scales (a 1920x1080 picture on a 1920x1080 screen, a
/// 3840x2160 one at half size), on a screen not turned. Anything else — or a first splash
/// that turns out to be another picture, on another screen — is drawn as before; a guess
/// costs only the decode.
public final class ComposedPicture: @unchecked Sendable {
    /// The picture file.
    public let path: String
    /// How it is fitted, and the colour around it.
    let fit: ImageFit
    let background: RGBColor
    /// The frame it is composed into (the screen's size).
    private let frame: Pixmap
    /// Whether the frame is the screen's own buffer: nothing may be shown from it until the
    /// decode is done (`finish`).
    let intoScreen: Bool
    private let done = DispatchSemaphore(value: 0)
    private var composed = false

    /// Starts composing the JPEG at `path` as a splash draws it on a screen of `screen`
    /// size with `fit` on `background`; nil when it would not be drawn as one decode
    /// (not a JPEG, cropped, no DCT scale of the right size) or there is no memory.
    public convenience init?(path: String, screen: Size, fit: ImageFit, background: RGBColor) {
        self.init(path: path, screen: screen, fit: fit, background: background, into: nil)
    }

    /// The same, into `target` when given (of that size) instead of a frame of its own.
    init?(path: String, screen: Size, fit: ImageFit, background: RGBColor, into target: Pixmap?) {
        guard let header = try? ImageHeader.read(fromFile: path), header.kind == .jpeg else { return nil }
        let original = Size(width: header.width, height: header.height)
        // Letterboxed as the splash draws it, leaving the pill its bar.
        let placement = fit.placement(of: original, on: screen, clearing: SkipButton(screen: screen).corner)
        let destination = placement.destination
        let screenRect = Rect(x: 0, y: 0, width: screen.width, height: screen.height)
        guard placement.source == Rect(x: 0, y: 0, width: original.width, height: original.height),
              destination.clipped(to: screenRect) == destination,
              ImageDecoder.jpegSize(of: original, drawnWidth: destination.width) == destination.size,
              let frame = target.flatMap({ $0.size == screen ? $0 : nil })
                  ?? Pixmap(width: screen.width, height: screen.height, format: .xrgb32)
        else { return nil }
        self.path = path
        self.fit = fit
        self.background = background
        self.frame = frame
        intoScreen = frame.borrowed
        SerialWorker.detached(name: "splashboard.compose") { [self] in
            if destination != screenRect { frame.fill(nil, background) }
            composed = (try? ImageDecoder.decodeJPEG(UntrustedFile.read(path), at: destination.size,
                                                     into: frame.pixels + destination.y * frame.pitch + destination.x * 4,
                                                     pitch: frame.pitch)) ?? false
            done.signal()
        }
    }

    /// Whether this is the picture at `path` drawn with `fit` on `background`.
    func shows(_ path: String, fit: ImageFit, background: RGBColor) -> Bool {
        self.path == path && self.fit == fit && self.background == background
    }

    /// Waits for the frame: nil when the picture did not compose (it is then drawn as
    /// any other, which says why when it does not decode).
    func take() -> Pixmap? {
        finish()
        return composed ? frame : nil
    }

    /// Waits until the decode no longer writes.
    func finish() {
        done.wait()
        done.signal()
    }
}
