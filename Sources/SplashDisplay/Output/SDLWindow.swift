import CSDL2
import CX11
import SplashCore

/// A window (X11, Wayland, SDL's own KMSDRM) through SDL2, loaded when it opens
/// (`SDLLibrary`): frames drawn in memory are copied onto the window's framebuffer (or,
/// where the driver has none, uploaded to a texture), and SDL's events become the loop's.
final class SDLWindow {
    let sdl: SDLLibrary
    private let window: OpaquePointer
    /// SDL's video driver (`x11`, `wayland`, `kmsdrm`).
    let driver: String
    /// How frames reach the window: `software` (its framebuffer) or SDL's render driver.
    let rendererName: String
    /// Where the driver has no window framebuffer: its renderer and a texture of the frame's size.
    private var renderer: OpaquePointer?
    private var texture: (texture: OpaquePointer, size: Size)?
    /// The event that wakes the loop from `wait` when background work posted something.
    private let wakeEvent: UInt32
    /// The size of the output when it was last read: what a click's position is scaled to.
    private var lastOutputSize = Size(width: 0, height: 0)

    /// Opens the window: `size` nil means the whole display.
    init(size: Size?) throws {
        let sdl = try SDLLibrary.shared()
        self.sdl = sdl
        Self.setHints(sdl)
        if sdl.wasInit(UInt32(SDL_INIT_VIDEO)) == 0, sdl.initSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) != 0 {
            throw DisplayError.noDisplay(sdl.errorText())
        }
        let videoDriver = sdl.getCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
        driver = videoDriver
        if videoDriver == "offscreen" || videoDriver == "dummy" {
            // SDL falls back to drivers that show nothing: for a kiosk that is no display.
            sdl.quitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw DisplayError.noDisplay("SDL found no screen, only its \(videoDriver) driver")
        }
        var flags = SDL_WINDOW_SHOWN.rawValue
        var requested = size ?? KioskOptions.headlessDefaultSize
        var x = splash_windowpos_centered()
        var y = x
        if size == nil {
            var mode = SDL_DisplayMode()
            if sdl.getDesktopDisplayMode(0, &mode) == 0 {
                requested = Size(width: Int(mode.w), height: Int(mode.h))
            }
            var bounds = SDL_Rect()
            if videoDriver == "x11", splash_x11_window_manager_running(nil) == 0, sdl.getDisplayBounds(0, &bounds) == 0 {
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
        guard let window = sdl.createWindow("Splashboard", x, y, Int32(requested.width), Int32(requested.height), flags) else {
            let reason = sdl.errorText()
            sdl.quitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw DisplayError.noDisplay(reason)
        }
        self.window = window
        // The window's framebuffer where the driver has one; otherwise its renderer.
        if videoDriver == "kmsdrm" || sdl.getWindowSurface(window) == nil {
            guard let made = sdl.createRenderer(window, -1, 0) else {
                let reason = sdl.errorText()
                sdl.destroyWindow(window)
                throw DisplayError.sdl("creating a renderer", reason)
            }
            renderer = made
            var info = SDL_RendererInfo()
            _ = sdl.getRendererInfo(made, &info)
            rendererName = info.name.map { String(cString: $0) } ?? "unknown"
        } else {
            rendererName = "software"
        }
        wakeEvent = sdl.registerEvents(1)
        _ = sdl.showCursor(SDL_DISABLE)
        sdl.disableScreenSaver()
    }

    deinit {
        if let texture { sdl.destroyTexture(texture.texture) }
        if let renderer { sdl.destroyRenderer(renderer) }
        sdl.destroyWindow(window)
    }

    /// The process-wide SDL hints the kiosk relies on.
    private static func setHints(_ sdl: SDLLibrary) {
        _ = sdl.setHint("SDL_FRAMEBUFFER_ACCELERATION", "0")
        _ = sdl.setHint("SDL_TOUCH_MOUSE_EVENTS", "0")
        // A click that gives the window focus is a click too: SDL drops it otherwise.
        _ = sdl.setHint("SDL_MOUSE_FOCUS_CLICKTHROUGH", "1")
        _ = sdl.setHint("SDL_VIDEO_ALLOW_SCREENSAVER", "0")
        _ = sdl.setHint("SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS", "0")
        // SIGTERM and SIGINT end the process at once (systemd's stop, Ctrl+C): every
        // committed show is already safe in the database.
        _ = sdl.setHint("SDL_NO_SIGNAL_HANDLERS", "1")
    }

    /// Whether SDL waits for the window system's events itself (X11, Wayland); with
    /// SDL's KMSDRM the loop polls the input devices and pumps SDL's events.
    var waitsForEvents: Bool { driver == "x11" || driver == "wayland" }

    /// The output's size in pixels: the window's framebuffer (made anew by SDL after a
    /// resize: a frame drawn straight into the old one must be made again), or the
    /// renderer's output.
    var outputSize: Size {
        if let renderer {
            var w: Int32 = 0, h: Int32 = 0
            _ = sdl.getRendererOutputSize(renderer, &w, &h)
            lastOutputSize = Size(width: Int(w), height: Int(h))
        } else if let surface = sdl.getWindowSurface(window) {
            lastOutputSize = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        } else {
            lastOutputSize = windowSize
        }
        return lastOutputSize
    }

    /// The window's framebuffer as pixels to draw on, where it is laid out as the frames
    /// are (XRGB8888, rows a multiple of 4 bytes; a framebuffer with alpha is copied onto,
    /// with its alpha made opaque, instead): frames are then drawn
    /// straight into it and a present only shows what changed, without a frame of the
    /// kiosk's own beside SDL's. Nil where the driver has none or another layout. Valid until
    /// the next `outputSize` or `present` that finds it made anew.
    func framebuffer() -> Pixmap? {
        guard renderer == nil, let surface = sdl.getWindowSurface(window), let format = surface.pointee.format,
              format.pointee.BytesPerPixel == 4, surface.pointee.pitch % 4 == 0,
              format.pointee.format == SDL_PIXELFORMAT_RGB888.rawValue
        else { return nil }
        lastOutputSize = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        return Pixmap(borrowing: surface.pointee.pixels, width: Int(surface.pointee.w), height: Int(surface.pointee.h),
                      pitch: Int(surface.pointee.pitch), format: .xrgb32)
    }

    /// The window's size in its own coordinates (the mouse's).
    var windowSize: Size {
        var w: Int32 = 0, h: Int32 = 0
        sdl.getWindowSize(window, &w, &h)
        return Size(width: Int(w), height: Int(h))
    }

    /// Shows `frame` (XRGB8888, the output's size): what changed (`damage`, nil: all of it)
    /// shown where the frame is the window's framebuffer (`framebuffer`), else copied onto
    /// it, or the frame uploaded whole. False when the window's framebuffer was made anew
    /// (a resize): a frame drawn straight into the old one is gone with it and nothing was shown.
    @discardableResult
    func present(_ frame: Pixmap, damage: Rect?) throws -> Bool {
        if renderer == nil, frame.borrowed {
            // The frame is the window's framebuffer (the only pixels a canvas borrows).
            guard let target = sdl.getWindowSurface(window), target.pointee.pixels == frame.pixels,
                  Int(target.pointee.w) == frame.width, Int(target.pointee.h) == frame.height else { return false }
            if let damage {
                let part = damage.clipped(to: frame.bounds)
                var rect = SDL_Rect(x: Int32(part.x), y: Int32(part.y), w: Int32(part.width), h: Int32(part.height))
                _ = sdl.updateWindowSurfaceRects(window, &rect, 1)
            } else {
                _ = sdl.updateWindowSurface(window)
            }
            return true
        }
        guard let source = sdl.createSurfaceFrom(frame.pixels, Int32(frame.width), Int32(frame.height), 32,
                                                 Int32(frame.pitch), SDL_PIXELFORMAT_RGB888.rawValue)
        else { throw DisplayError.sdl("showing a frame", sdl.errorText()) }
        defer { sdl.freeSurface(source) }
        if let renderer {
            if texture?.size != frame.size {
                if let old = texture { sdl.destroyTexture(old.texture) }
                texture = sdl.createTexture(renderer, SDL_PIXELFORMAT_RGB888.rawValue,
                                            Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(frame.width),
                                            Int32(frame.height)).map { ($0, frame.size) }
            }
            guard let texture else { throw DisplayError.sdl("showing a frame", sdl.errorText()) }
            _ = sdl.updateTexture(texture.texture, nil, frame.pixels, Int32(frame.pitch))
            _ = sdl.renderCopy(renderer, texture.texture, nil, nil)
            sdl.renderPresent(renderer)
            return true
        }
        guard let target = sdl.getWindowSurface(window) else { throw DisplayError.sdl("showing a frame", sdl.errorText()) }
        _ = sdl.setSurfaceBlendMode(source, SDL_BLENDMODE_NONE)
        let whole = Rect(x: 0, y: 0, width: min(frame.width, Int(target.pointee.w)), height: min(frame.height, Int(target.pointee.h)))
        let part = (damage ?? whole).clipped(to: whole)
        guard part.width > 0, part.height > 0 else { return true }
        var from = SDL_Rect(x: Int32(part.x), y: Int32(part.y), w: Int32(part.width), h: Int32(part.height))
        var to = from
        _ = sdl.upperBlit(source, &from, target, &to)
        if damage != nil {
            _ = sdl.updateWindowSurfaceRects(window, &to, 1)
        } else {
            _ = sdl.updateWindowSurface(window)
        }
        return true
    }


    /// Wakes `next` from any thread.
    func wake() {
        var event = SDL_Event()
        event.type = wakeEvent
        _ = sdl.pushEvent(&event)
    }

    /// The next event: waited for up to `timeoutMs` (nil: until one comes; 0: only what is
    /// there); nil when none came, `.some(nil)` for one the loop does not use.
    func next(timeoutMs: Int32?) -> ShellEvent?? {
        var event = SDL_Event()
        guard sdl.waitEventTimeout(&event, timeoutMs ?? -1) != 0 else { return .none }
        return .some(meaning(of: event))
    }

    /// What is waiting, without waiting (SDL's queue filled from the window system first);
    /// nil when nothing is, `.some(nil)` for an event the loop does not use.
    func poll() -> ShellEvent?? {
        sdl.pumpEvents()
        var event = SDL_Event()
        guard sdl.pollEvent(&event) != 0 else { return .none }
        return .some(meaning(of: event))
    }

    /// What an SDL event is to the loop; nil for one it does not use.
    private func meaning(of event: SDL_Event) -> ShellEvent? {
        if event.type == wakeEvent { return .wake }
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_FINGERDOWN, SDL_FINGERUP:
            return .touch(down: SDL_EventType(event.type) == SDL_FINGERDOWN, x: Double(event.tfinger.x),
                          y: Double(event.tfinger.y), screen: 0)
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP:
            // Touches arrive as finger events; SDL's mouse copies of them are dropped.
            guard event.button.which != splash_touch_mouse_id() else { return nil }
            // Window coordinates to the output's pixels.
            let window = windowSize, output = lastOutputSize
            let sx = window.width > 0 ? Double(output.width) / Double(window.width) : 1
            let sy = window.height > 0 ? Double(output.height) / Double(window.height) : 1
            return .click(down: SDL_EventType(event.type) == SDL_MOUSEBUTTONDOWN, x: Int(Double(event.button.x) * sx),
                          y: Int(Double(event.button.y) * sy))
        case SDL_KEYDOWN:
            guard event.key.repeat == 0 else { return nil }
            return .key(Self.key(for: event.key.keysym.sym, modifiers: event.key.keysym.mod))
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_RESIZED: return .resized
            case SDL_WINDOWEVENT_EXPOSED, SDL_WINDOWEVENT_SHOWN, SDL_WINDOWEVENT_RESTORED: return .redraw
            default: return nil
            }
        case SDL_RENDER_TARGETS_RESET, SDL_RENDER_DEVICE_RESET:
            return .redraw
        default:
            return nil
        }
    }

    /// The kiosk's key for an SDL key.
    static func key(for sym: SDL_Keycode, modifiers: UInt16) -> Key {
        let ctrl = modifiers & UInt16(KMOD_CTRL.rawValue) != 0
        switch sym {
        case SDL_Keycode(SDLK_ESCAPE.rawValue): return .escape
        case SDL_Keycode(SDLK_SPACE.rawValue): return .space
        case SDL_Keycode(SDLK_RETURN.rawValue), SDL_Keycode(SDLK_KP_ENTER.rawValue): return .enter
        case SDL_Keycode(SDLK_F2.rawValue): return .operatorView
        case SDL_Keycode(SDLK_o.rawValue) where ctrl: return .operatorView
        case SDL_Keycode(SDLK_PAGEDOWN.rawValue): return .pageDown
        case SDL_Keycode(SDLK_PAGEUP.rawValue): return .pageUp
        case SDL_Keycode(SDLK_RIGHT.rawValue): return .right
        case SDL_Keycode(SDLK_LEFT.rawValue): return .left
        default: return .other
        }
    }
}

/// The window as one more screen of `Screens`: frames drawn straight into its framebuffer
/// where it has one, and its signal turned through the X server's DPMS.
extension SDLWindow: ScreenOutput {
    var size: Size { outputSize }
    /// The driver and the window's size.
    var description: String { "\(driver) window \(outputSize)" }
    /// The video driver: a window has no connector of its own.
    var name: String { driver }
    /// A window is turned by the window system, never by the kiosk.
    var orientation: Rotation { .none }

    /// Under X11, the monitor's DPMS forced off or on. SDL keeps the screensaver (and DPMS)
    /// from starting while it runs, by resetting it now and then: dark, it may; lit, it
    /// keeps them off again. Nil elsewhere (Wayland, SDL's KMSDRM): only the picture is dark.
    func setSignal(_ on: Bool) throws -> String? {
        guard driver == "x11" else { return nil }
        if on { sdl.disableScreenSaver() } else { sdl.enableScreenSaver() }
        switch splash_x11_dpms_force(nil, on ? 1 : 0) {
        case 1: return "dpms"
        case 0: throw DisplayError.signal("the X server has no DPMS for this monitor; only the picture is dark")
        default: throw DisplayError.signal("cannot open the X display for DPMS")
        }
    }
}
