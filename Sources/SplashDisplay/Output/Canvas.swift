import FoundationEssentials
import SplashCore
import SplashServices

/// Where frames are drawn and shown: a frame in memory (`Pixmap`) of the output's size,
/// the `ScreenOutput` it goes to (a window, or the console's screen through `DRMOutput`
/// or `FramebufferOutput`), rotation, and reading frames back as PNG.
///
/// One screen's canvas; the list of them is `Screens`. Here: setting up the frame for the
/// window, the console or no display at all (headless); a frame's life in
/// `Canvas+Frames`, reading frames back in `Canvas+Screenshots`. What is drawn on is a
/// `Surface` (`Surface+Primitives`: fills, rounded rectangles, text; `Surface+Pictures`:
/// pictures and thumbnails), which `beginFrame` hands out; decoded pictures are shared
/// through a `PictureShelf`; `Canvas+PreparedFrames` draws frames ahead on surfaces of
/// their own.
///
/// Every frame is drawn the same way wherever it goes — into memory, with pixman — so a
/// screen's pixels do not depend on where it is shown: headless there is no output; on the
/// console each present copies what changed to a KMS dumb buffer or the framebuffer; in a
/// window, to the window's framebuffer through SDL2, loaded only then (`SDLWindow`). With
/// `--rotate`, frames are drawn upright in a frame of the layout size and turned onto the
/// output's.
public final class Canvas {
    /// Where frames are shown: the window, or the console's screen (KMS dumb buffers or a
    /// framebuffer device); nil headless, and while the console has none. Only a console
    /// canvas's output changes (a window's stays for its life).
    var output: (any ScreenOutput)? {
        // A first frame drawn in the old screen's buffer is copied before the buffer goes.
        willSet { if frame.borrowed { drawInMemoryAgain() } }
    }
    /// The driver named while there is no output: `dummy` headless, `drm` for a console
    /// waiting for a screen.
    private let driverWithoutOutput: String
    /// The frame of the output's size that is shown.
    private(set) var frame: Pixmap
    /// Where frames are drawn when turned: a frame of the layout size.
    private var upright: Pixmap?
    /// What frames are drawn on: `frame`, or `upright` when turned. Made anew when the
    /// output changes size or turn.
    private(set) var surface: Surface
    /// Decoded pictures, shared by the screen's surface, frames drawn ahead and the other
    /// screens' canvases.
    let shelf: PictureShelf
    /// SDL's video driver (`x11`, `wayland`, `kmsdrm`), `dummy` headless, or on the console
    /// what draws on its screen (`drm`, `fbdev`).
    public var driver: String { output?.driver ?? driverWithoutOutput }
    /// How frames reach the output: `software` (drawn in memory and copied), or the render
    /// driver SDL uploads them with where a window has no framebuffer.
    public var rendererName: String { output?.rendererName ?? "software" }
    /// How frames are turned onto the output: `--rotate` added to the screen's own
    /// orientation (a panel mounted turned says so to the kernel).
    public private(set) var rotation: Rotation
    /// The turn asked for with `--rotate`.
    let configuredRotation: Rotation
    /// The output in pixels.
    public var outputSize: Size { frame.size }
    /// The kiosk's terminal is switched away: frames are drawn but not presented.
    var suspended = false
    /// What the frame showed under the pill before it was drawn, for the next tick.
    var underPill: SavedRegion?
    /// The first splash's frame, composed ahead on another thread, until a frame takes it.
    var composed: ComposedPicture?
    /// The frame shown is the console's buffer itself (the first splash, composed in it):
    /// the next frame is drawn on a copy in memory, never on the buffer being scanned out.
    var shownFromScreenBuffer = false
    /// The turn changed since the last `refreshOutputSize`.
    private var turned = false
    /// The window's framebuffer was made anew since the last `refreshOutputSize`.
    private var replaced = false

    /// Where frames go.
    public enum Output: Equatable {
        /// A window (X11, Wayland, SDL's own KMSDRM) or, headless, none.
        case window
        /// The console through libdrm; `device` nil means every one with a screen connected.
        case console(device: String?)

        /// The console when nothing says otherwise: no X11 or Wayland display in the
        /// environment and no SDL video driver asked for. (With no DRM device either, the
        /// console reports that there is no display, and the service waits for one.)
        public static func automatic(headless: Bool, drmDevice: String?, environment: [String: String]) -> Output {
            if headless { return .window }
            if let drmDevice { return .console(device: drmDevice) }
            let set = { (name: String) in !(environment[name] ?? "").isEmpty }
            if set("DISPLAY") || set("WAYLAND_DISPLAY") || set("SDL_VIDEODRIVER") { return .window }
            return .console(device: nil)
        }
    }

    /// The size screens are laid out in.
    public var layoutSize: Size { rotation.logicalSize(for: outputSize) }

    /// The console's drawing: a frame in memory in the dumb buffers' format, which each
    /// present copies to `output`'s screen, turned by `rotation` added to the screen's own
    /// orientation. With no output (the tests), what the console would show, pixel for
    /// pixel, without a screen.
    init(consoleFrame size: Size, output: (any ScreenOutput)?, rotation: Rotation,
         shelf: PictureShelf = PictureShelf()) throws {
        configuredRotation = rotation
        self.rotation = rotation.adding(output?.orientation ?? .none)
        self.shelf = shelf
        self.output = output
        driverWithoutOutput = "drm"
        (frame, upright, surface) = try Self.frames(size, turned: self.rotation, shelf: shelf, output: output)
    }

    /// Opens the window, or headless a frame with no display behind it. `size` nil means
    /// the whole display (headless: 1280x720).
    public init(headless: Bool, size: Size?, rotation: Rotation) throws {
        self.rotation = rotation
        configuredRotation = rotation
        shelf = PictureShelf()
        driverWithoutOutput = "dummy"
        let window = headless ? nil : try SDLWindow(size: size)
        output = window
        let outputSize = window?.outputSize ?? size ?? KioskOptions.headlessDefaultSize
        (frame, upright, surface) = try Self.frames(outputSize, turned: rotation, shelf: shelf, output: window)
    }

    /// A frame of `size` (the output's own framebuffer where it can be drawn on straight),
    /// the upright one it is turned from when `turned`, and the surface drawn on.
    private static func frames(_ size: Size, turned: Rotation, shelf: PictureShelf,
                               output: (any ScreenOutput)?) throws -> (Pixmap, Pixmap?, Surface) {
        let outputs = output?.framebuffer().flatMap { $0.size == size ? $0 : nil }
        guard let frame = outputs ?? Pixmap(width: size.width, height: size.height, format: .xrgb32) else {
            throw DisplayError.sdl("allocating a \(size) frame", "not enough memory")
        }
        guard turned != .none else { return (frame, nil, Surface(frame: frame, shelf: shelf)) }
        let layout = turned.logicalSize(for: size)
        guard let upright = Pixmap(width: layout.width, height: layout.height, format: .xrgb32) else {
            throw DisplayError.sdl("allocating a \(layout) frame", "not enough memory")
        }
        return (frame, upright, Surface(frame: upright, shelf: shelf))
    }

    /// Draws on `output` from now on, turned as it asks (`refreshOutputSize` then makes
    /// the frame of its size).
    func adopt(_ output: any ScreenOutput) {
        self.output = output
        turn(to: configuredRotation.adding(output.orientation))
    }

    /// Turns frames by `turn` from now on (a screen with another orientation took this
    /// canvas's place): the surface is made again for the same frame.
    func turn(to turn: Rotation) {
        guard turn != rotation else { return }
        rotation = turn
        turned = true
        remakeFrames(frame.size)
    }

    /// Makes the frames for `size` at the current turn and draws on them from now on
    /// (decoded pictures stay); false when there is no memory for them.
    @discardableResult
    private func remakeFrames(_ size: Size) -> Bool {
        guard let made = try? Self.frames(size, turned: rotation, shelf: shelf, output: output) else { return false }
        (frame, upright, surface) = made
        underPill = nil
        shownFromScreenBuffer = false
        return true
    }

    /// Starts composing the first splash's picture at `path` (`ComposedPicture`) for this
    /// console screen, straight into the buffer its first frame is shown from where the
    /// screen has one; nil where it cannot be composed (frames drawn straight into a
    /// window's framebuffer, frames turned, a picture not drawn as one decode).
    public func composeFirst(_ path: String, fit: ImageFit, background: RGBColor) -> ComposedPicture? {
        guard upright == nil, let output, output.framebuffer() == nil else { return nil }
        return ComposedPicture(path: path, screen: frame.size, fit: fit, background: background,
                               into: output.bufferForFirstFrame())
    }

    /// Draws on the frame composed ahead for the picture at `path` with `fit` on
    /// `background` from now on (the picture already on it: the splash draws its pill
    /// alone); false when there is none for it, it did not compose, or it does not fit this
    /// canvas (a window's own framebuffer, frames turned, another size). Either way the
    /// composed frame is used up. A frame composed in the screen's buffer itself is shown
    /// from there: the next one is drawn in memory again.
    func takeComposed(_ path: String, fit: ImageFit, background: RGBColor) -> Bool {
        guard let composed, composed.shows(path, fit: fit, background: background) else { return false }
        self.composed = nil
        guard upright == nil, output?.framebuffer() == nil, let made = composed.take(), made.size == frame.size
        else { return false }
        frame = made
        surface = Surface(frame: made, shelf: shelf)
        underPill = nil
        shownFromScreenBuffer = made.borrowed
        return true
    }

    /// After a first frame shown from the console's buffer itself: frames are drawn in
    /// memory again, on a copy of it (where memory is short, the buffer stays the frame and
    /// each present copies from it).
    func drawInMemoryAgain() {
        shownFromScreenBuffer = false
        guard let copy = Pixmap(width: frame.width, height: frame.height, format: .xrgb32) else { return }
        copy.copy(frame)
        frame = copy
        surface = Surface(frame: copy, shelf: shelf)
    }

    /// Re-reads the output size after a window or display-mode change; true when it or
    /// the turn changed.
    @discardableResult
    public func refreshOutputSize() -> Bool {
        defer { (turned, replaced) = (false, false) }
        let now = output?.size ?? frame.size
        // A window's framebuffer made anew at the same size: drawn on from now on (and a
        // console's buffer a first frame was composed in: drawn in memory again).
        let moved = frame.borrowed && output?.framebuffer()?.pixels != frame.pixels
        guard now != frame.size || moved, now.width > 0, now.height > 0, remakeFrames(now) else { return turned || replaced }
        return true
    }

    /// The window's framebuffer, drawn on straight, was made anew (a resize, not yet
    /// handled): the frames are made on the new one, and the next `refreshOutputSize` says so.
    func takeNewFramebuffer() {
        guard let output, remakeFrames(output.size) else { return }
        replaced = true
    }

    /// A pixel of the output (a window's mouse, a relative pointer) to layout coordinates.
    public func layoutPoint(outputX: Int, outputY: Int) -> Point {
        rotation.logicalPoint(Point(x: outputX, y: outputY), output: outputSize)
    }

    /// Normalised touch coordinates (0…1 across the output) to layout coordinates.
    public func layoutPoint(normalizedX: Double, normalizedY: Double) -> Point {
        rotation.logicalPoint(normalizedX: normalizedX, normalizedY: normalizedY, output: outputSize)
    }
}
