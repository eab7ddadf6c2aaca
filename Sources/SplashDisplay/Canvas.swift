import CSDL2
import CX11
import FoundationEssentials
import SplashCore
import SplashServices

/// Where frames are drawn and shown: the output (a window, or the console's screen
/// through `DRMOutput`), its renderer, rotation, and reading frames back as PNG.
///
/// One screen's canvas; the list of them is `Screens`. Here: setting up the window or the
/// console's frame and the renderer (two ways to the same state); a frame's life in
/// `Canvas+Frames`, reading frames back in `Canvas+Screenshots`. What is drawn
/// on is a `Surface` (`Surface+Primitives`: fills, rounded rectangles, text;
/// `Surface+Pictures`: pictures and thumbnails), which `beginFrame` hands out; decoded
/// pictures are shared through a `PictureShelf`; `Canvas+PreparedFrames` draws frames
/// ahead on surfaces of their own.
///
/// Headless, it is SDL's `dummy` video driver with the software renderer; on a display,
/// the software renderer too, drawing straight into the window's framebuffer (no OpenGL),
/// except where the driver only offers accelerated rendering (SDL's KMSDRM). On the
/// console, the software renderer draws into a frame in memory that each present copies
/// to a KMS dumb buffer. Opaque pictures are copied onto the frame from their decoded
/// pixels (`DecodedPicture`). With `--rotate`, frames are drawn into a texture of the
/// layout size and turned onto the output.
public final class Canvas {
    /// The SDL window; nil on the DRM console, which has none.
    let window: OpaquePointer?
    /// The console's screen (KMS dumb buffers or a framebuffer device); nil in a window or
    /// headless, and while the console has none.
    var console: (any ConsoleScreen)?
    /// Whether frames go to the console (a frame in memory copied to `console`).
    public let isConsole: Bool
    /// What frames are drawn on: the renderer on the window's own pixels (`windowPixels`)
    /// where the driver has them, otherwise the driver's renderer (KMSDRM). Made anew when
    /// the framebuffer changes.
    private(set) var surface: Surface
    var renderer: OpaquePointer { surface.renderer }
    /// Decoded pictures, shared by the screen's surface, frames drawn ahead and the other
    /// screens' canvases.
    let shelf: PictureShelf
    /// The window's framebuffer when the frame is drawn in software straight into it; then
    /// pictures are blitted onto it without a texture copy. Nil on drivers without one.
    /// On the console, the frame in ordinary memory that each present copies to the screen.
    var windowPixels: UnsafeMutablePointer<SDL_Surface>?
    /// SDL's video driver (`dummy`, `x11`, `wayland`, `kmsdrm`), or on the console what
    /// draws on its screen (`drm`, `fbdev`).
    public var driver: String { isConsole ? console?.driver ?? "drm" : windowDriver }
    private let windowDriver: String
    /// SDL's render driver (`software`, `opengles2`, …).
    public let rendererName: String
    /// How frames are turned onto the output: `--rotate` added to the screen's own
    /// orientation (a panel mounted turned says so to the kernel).
    public private(set) var rotation: Rotation
    /// The turn asked for with `--rotate`.
    let configuredRotation: Rotation
    /// The renderer's output in pixels.
    public private(set) var outputSize: Size
    var rotationTarget: OpaquePointer?
    /// The kiosk's terminal is switched away: frames are drawn but not presented.
    var suspended = false
    /// What the frame showed under the pill before it was drawn, for the next tick.
    var underPill: SavedRegion?
    /// The turn changed since the last `refreshOutputSize`.
    private var turned = false

    /// Where frames go.
    public enum Output: Equatable {
        /// An SDL window (X11, Wayland, SDL's own KMSDRM) or, headless, SDL's dummy driver.
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

    /// Sets the process-wide SDL hints the kiosk relies on.
    static func setHints(headless: Bool) {
        if headless {
            splash_set_hint("SDL_VIDEODRIVER", "dummy")
        }
        splash_set_hint("SDL_FRAMEBUFFER_ACCELERATION", "0")
        splash_set_hint("SDL_RENDER_SCALE_QUALITY", "linear")
        splash_set_hint("SDL_TOUCH_MOUSE_EVENTS", "0")
        // A click that gives the window focus is a click too: SDL drops it otherwise.
        splash_set_hint("SDL_MOUSE_FOCUS_CLICKTHROUGH", "1")
        splash_set_hint("SDL_VIDEO_ALLOW_SCREENSAVER", "0")
        splash_set_hint("SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS", "0")
        // SIGTERM and SIGINT end the process at once (systemd's stop, Ctrl+C): every
        // committed show is already safe in the database.
        splash_set_hint("SDL_NO_SIGNAL_HANDLERS", "1")
    }

    /// The console's drawing: SDL's software renderer on a frame in memory in the dumb
    /// buffers' format, which each present copies to `output`'s screen, turned by
    /// `rotation` added to the screen's own orientation. With no output (the tests), what
    /// the console would show, pixel for pixel, without a screen.
    init(consoleFrame size: Size, output: (any ConsoleScreen)?, rotation: Rotation,
         shelf: PictureShelf = PictureShelf()) throws {
        configuredRotation = rotation
        let rotation = rotation.adding(output?.orientation ?? .none)
        self.rotation = rotation
        self.shelf = shelf
        guard let pixels = Self.consoleFrame(size), let renderer = Self.softwareRenderer(on: pixels) else {
            throw DisplayError.sdl("allocating a \(size) frame", sdlErrorText())
        }
        window = nil
        console = output
        isConsole = true
        windowPixels = pixels
        surface = Surface(renderer: renderer, pixels: rotation == .none ? pixels : nil,
                          layoutSize: rotation.logicalSize(for: size), shelf: shelf, ownsRenderer: true)
        windowDriver = "drm"
        rendererName = "software"
        outputSize = size
    }

    /// A frame in memory in the dumb buffers' pixel format (XRGB8888).
    static func consoleFrame(_ size: Size) -> UnsafeMutablePointer<SDL_Surface>? {
        SDL_CreateRGBSurfaceWithFormat(0, Int32(size.width), Int32(size.height), 32, SDL_PIXELFORMAT_RGB888.rawValue)
    }

    /// Opens the window. `size` nil means the whole display (headless: 1280x720).
    public init(headless: Bool, size: Size?, rotation: Rotation) throws {
        self.rotation = rotation
        configuredRotation = rotation
        shelf = PictureShelf()
        isConsole = false
        Self.setHints(headless: headless)
        if SDL_WasInit(UInt32(SDL_INIT_VIDEO)) == 0, SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) != 0 {
            throw DisplayError.noDisplay(sdlErrorText())
        }
        let videoDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
        windowDriver = videoDriver
        if !headless, videoDriver == "offscreen" || videoDriver == "dummy" {
            // SDL falls back to drivers that show nothing: for a kiosk that is no display.
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw DisplayError.noDisplay("SDL found no screen, only its \(videoDriver) driver")
        }

        var flags = SDL_WINDOW_SHOWN.rawValue
        var requested = size ?? KioskOptions.headlessDefaultSize
        var x = splash_windowpos_centered()
        var y = x
        if !headless {
            if size == nil {
                var mode = SDL_DisplayMode()
                if SDL_GetDesktopDisplayMode(0, &mode) == 0 {
                    requested = Size(width: Int(mode.w), height: Int(mode.h))
                }
                var bounds = SDL_Rect()
                if videoDriver == "x11", splash_x11_window_manager_running(nil) == 0, SDL_GetDisplayBounds(0, &bounds) == 0 {
                    // SDL's fullscreen on X11 asks the window manager and then waits 100 ms for
                    // an answer. With no window manager (the usual kiosk) none comes and
                    // nothing would change: a borderless window over the display is the same
                    // picture without the wait.
                    flags |= SDL_WINDOW_BORDERLESS.rawValue
                    (x, y) = (bounds.x, bounds.y)
                    requested = Size(width: Int(bounds.w), height: Int(bounds.h))
                } else {
                    flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue
                }
            } else {
                flags |= SDL_WINDOW_RESIZABLE.rawValue
            }
        }
        guard let window = SDL_CreateWindow("Splashboard", x, y, Int32(requested.width), Int32(requested.height), flags)
        else {
            let reason = sdlErrorText()
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw DisplayError.noDisplay(reason)
        }
        self.window = window
        // The software renderer on the window's framebuffer where one exists; otherwise what
        // the driver has.
        var made: OpaquePointer?
        if videoDriver != "kmsdrm", let pixels = SDL_GetWindowSurface(window), let software = Self.softwareRenderer(on: pixels) {
            made = software
            windowPixels = pixels
        }
        if made == nil { made = SDL_CreateRenderer(window, -1, 0) }
        guard let renderer = made else {
            let reason = sdlErrorText()
            SDL_DestroyWindow(window)
            throw DisplayError.sdl("creating a renderer", reason)
        }
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        rendererName = info.name.map { String(cString: $0) } ?? "unknown"
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        outputSize = Size(width: Int(w), height: Int(h))
        surface = Surface(renderer: renderer, pixels: rotation == .none ? windowPixels : nil,
                          layoutSize: rotation.logicalSize(for: outputSize), shelf: shelf, ownsRenderer: true)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        if !headless {
            SDL_ShowCursor(SDL_DISABLE)
        }
        SDL_DisableScreenSaver()
    }

    deinit {
        if let rotationTarget { SDL_DestroyTexture(rotationTarget) }
        // The renderer goes before the window or frame under it.
        surface.close()
        if let window {
            SDL_DestroyWindow(window)
        } else if let windowPixels {
            SDL_FreeSurface(windowPixels)
        }
    }

    /// SDL's software renderer drawing on `pixels`, blending what it draws.
    static func softwareRenderer(on pixels: UnsafeMutablePointer<SDL_Surface>) -> OpaquePointer? {
        let renderer = SDL_CreateSoftwareRenderer(pixels)
        if let renderer { SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND) }
        return renderer
    }

    /// Draws on `output` from now on, turned as it asks (`refreshOutputSize` then makes
    /// the frame of its size).
    func adopt(_ output: any ConsoleScreen) {
        console = output
        turn(to: configuredRotation.adding(output.orientation))
    }

    /// Turns frames by `turn` from now on (a screen with another orientation took this
    /// canvas's place): the surface is made again on the same frame.
    func turn(to turn: Rotation) {
        guard turn != rotation else { return }
        rotation = turn
        if let rotationTarget { SDL_DestroyTexture(rotationTarget) }
        rotationTarget = nil
        turned = true
        if let pixels = windowPixels, let made = softwareSurface(on: pixels) { surface = made }
    }

    /// A surface with SDL's software renderer on `pixels`, laid out for them at the current
    /// turn (drawing straight onto them when unturned); nil when SDL cannot make the renderer.
    private func softwareSurface(on pixels: UnsafeMutablePointer<SDL_Surface>) -> Surface? {
        guard let software = Self.softwareRenderer(on: pixels) else { return nil }
        return Surface(renderer: software, pixels: rotation == .none ? pixels : nil,
                       layoutSize: rotation.logicalSize(for: Size(width: Int(pixels.pointee.w), height: Int(pixels.pointee.h))),
                       shelf: shelf, ownsRenderer: true)
    }

    /// Re-reads the output size after a window or display-mode change; true when it or
    /// the turn changed.
    @discardableResult
    public func refreshOutputSize() -> Bool {
        defer { turned = false }
        if windowPixels != nil, let pixels = currentFramebuffer(),
           pixels != windowPixels || Int(pixels.pointee.w) != outputSize.width || Int(pixels.pointee.h) != outputSize.height {
            // A new framebuffer after a resize (possibly at the old one's address): a new
            // renderer on it, and textures made again.
            guard let made = softwareSurface(on: pixels) else { return false }
            if let rotationTarget { SDL_DestroyTexture(rotationTarget) }
            rotationTarget = nil
            // The old surface goes with its renderer and textures; decoded pictures stay.
            surface = made
            if window == nil, let old = windowPixels, old != pixels { SDL_FreeSurface(old) }
            windowPixels = pixels
        }
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        let new = Size(width: Int(w), height: Int(h))
        guard new != outputSize, w > 0, h > 0 else { return turned }
        outputSize = new
        if let rotationTarget { SDL_DestroyTexture(rotationTarget) }
        rotationTarget = nil
        // The same renderer at a new size (a driver without window pixels) keeps its textures.
        surface.layoutSize = layoutSize
        return true
    }

    /// The frame to draw into: the window's framebuffer, or on the console a frame of the
    /// screen's size (the same one while the size stays).
    private func currentFramebuffer() -> UnsafeMutablePointer<SDL_Surface>? {
        guard window == nil else { return SDL_GetWindowSurface(window) }
        guard let console else { return windowPixels }
        if let windowPixels, Int(windowPixels.pointee.w) == console.size.width,
           Int(windowPixels.pointee.h) == console.size.height { return windowPixels }
        return Self.consoleFrame(console.size)
    }

    /// Window coordinates (mouse) to layout coordinates.
    public func layoutPoint(windowX: Int32, windowY: Int32) -> Point {
        var ww = Int32(outputSize.width)
        var wh = Int32(outputSize.height)
        if let window { SDL_GetWindowSize(window, &ww, &wh) }
        let sx = ww > 0 ? Double(outputSize.width) / Double(ww) : 1
        let sy = wh > 0 ? Double(outputSize.height) / Double(wh) : 1
        let p = Point(x: Int(Double(windowX) * sx), y: Int(Double(windowY) * sy))
        return rotation.logicalPoint(p, output: outputSize)
    }

    /// Normalised touch coordinates (0…1 across the output) to layout coordinates.
    public func layoutPoint(normalizedX: Float, normalizedY: Float) -> Point {
        rotation.logicalPoint(normalizedX: Double(normalizedX), normalizedY: Double(normalizedY), output: outputSize)
    }

}

extension SDL_Rect {
    init(_ r: Rect) {
        self.init(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
    }
}
