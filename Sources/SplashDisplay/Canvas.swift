import CSDL2
import CX11
import Foundation
import SplashCore
import SplashServices

/// The window and renderer, and the few drawing primitives the screens are made of.
///
/// Headless, it is SDL's `dummy` video driver with the software renderer; on a display,
/// the software renderer too, drawing straight into the window's framebuffer (no OpenGL),
/// except where the driver only offers accelerated rendering (KMSDRM). Opaque pictures
/// are copied onto the frame from their decoded pixels (`DecodedPicture`). With
/// `--rotate`, frames are drawn into a texture of the layout size and turned onto the output.
public final class Canvas {
    /// The SDL window; nil on the DRM console, which has none.
    private let window: OpaquePointer?
    /// The console's screen, drawn through KMS dumb buffers; nil in a window or headless.
    private var console: DRMOutput?
    /// Whether frames go to the DRM console (input then comes from `EvdevInput`).
    public let isConsole: Bool
    /// The DRM device asked for (`--drm-device`); nil: the first with a screen connected.
    private let drmDevice: String?
    /// Draws into the window's own pixels (`windowPixels`) where the driver has them,
    /// otherwise into the driver's renderer (KMSDRM).
    private var renderer: OpaquePointer
    /// The window's framebuffer when the frame is drawn in software straight into it; then
    /// pictures are blitted onto it without a texture copy. Nil on drivers without one.
    /// On the console, the frame in ordinary memory that each present copies to the screen.
    private var windowPixels: UnsafeMutablePointer<SDL_Surface>?
    /// SDL's video driver (`dummy`, `x11`, `wayland`, `kmsdrm`), or `drm` on the console.
    public let driver: String
    /// SDL's render driver (`software`, `opengles2`, …).
    public let rendererName: String
    public let rotation: Rotation
    /// The renderer's output in pixels.
    public private(set) var outputSize: Size
    /// Which screen is drawn on, on the console: device, connector and mode.
    public var outputName: String? { console?.description }
    private var rotationTarget: OpaquePointer?
    private var pictures: [String: (picture: Picture, size: Size)] = [:]
    /// Pictures decoding on another thread, by path, until a frame needs them.
    private var pending: [String: PendingPicture] = [:]

    /// A decoded picture, kept while its screen is up.
    private enum Picture {
        /// Uploaded to the renderer (rotated output, pictures with transparency, KMSDRM).
        case texture(OpaquePointer)
        /// Kept as decoded and blitted onto the window's pixels.
        case pixels(DecodedPicture)
    }

    /// Where frames go.
    public enum Output: Equatable {
        /// An SDL window (X11, Wayland, SDL's own KMSDRM) or, headless, SDL's dummy driver.
        case window
        /// The console through libdrm; `device` nil means the first one with a screen connected.
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
    private static func setHints(headless: Bool) {
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

    /// Opens the console's screen: SDL's software renderer on a frame in memory that each
    /// present copies into a KMS dumb buffer. SDL's video subsystem is not started.
    public init(console device: String?, rotation: Rotation) throws {
        self.rotation = rotation
        Self.setHints(headless: false)
        if SDL_WasInit(UInt32(SDL_INIT_EVENTS)) == 0, SDL_InitSubSystem(UInt32(SDL_INIT_EVENTS)) != 0 {
            throw DisplayError.sdl("starting SDL's events", sdlErrorText())
        }
        let output = try DRMOutput.open(requested: device)
        guard let pixels = Self.consoleFrame(output.size), let renderer = Self.softwareRenderer(on: pixels) else {
            throw DisplayError.sdl("allocating a \(output.size) frame", sdlErrorText())
        }
        window = nil
        console = output
        drmDevice = device
        isConsole = true
        windowPixels = pixels
        self.renderer = renderer
        driver = "drm"
        rendererName = "software"
        outputSize = output.size
    }

    /// A frame in memory in the dumb buffers' pixel format (XRGB8888).
    private static func consoleFrame(_ size: Size) -> UnsafeMutablePointer<SDL_Surface>? {
        SDL_CreateRGBSurfaceWithFormat(0, Int32(size.width), Int32(size.height), 32, SDL_PIXELFORMAT_RGB888.rawValue)
    }

    /// Opens the window. `size` nil means the whole display (headless: 1280x720).
    public init(headless: Bool, size: Size?, rotation: Rotation) throws {
        self.rotation = rotation
        drmDevice = nil
        isConsole = false
        Self.setHints(headless: headless)
        if SDL_WasInit(UInt32(SDL_INIT_VIDEO)) == 0, SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) != 0 {
            throw DisplayError.noDisplay(sdlErrorText())
        }
        driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
        if !headless, driver == "offscreen" || driver == "dummy" {
            // SDL falls back to drivers that show nothing: for a kiosk that is no display.
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            throw DisplayError.noDisplay("SDL found no screen, only its \(driver) driver")
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
                if driver == "x11", splash_x11_window_manager_running(nil) == 0, SDL_GetDisplayBounds(0, &bounds) == 0 {
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
        if driver != "kmsdrm", let pixels = SDL_GetWindowSurface(window), let software = Self.softwareRenderer(on: pixels) {
            made = software
            windowPixels = pixels
        }
        if made == nil { made = SDL_CreateRenderer(window, -1, 0) }
        guard let renderer = made else {
            let reason = sdlErrorText()
            SDL_DestroyWindow(window)
            throw DisplayError.sdl("creating a renderer", reason)
        }
        self.renderer = renderer
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        rendererName = info.name.map { String(cString: $0) } ?? "unknown"
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        outputSize = Size(width: Int(w), height: Int(h))
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        if !headless {
            SDL_ShowCursor(SDL_DISABLE)
        }
        SDL_DisableScreenSaver()
    }

    deinit {
        keepPictures([])
        if let rotationTarget { SDL_DestroyTexture(rotationTarget) }
        SDL_DestroyRenderer(renderer)
        if let window {
            SDL_DestroyWindow(window)
        } else if let windowPixels {
            SDL_FreeSurface(windowPixels)
        }
    }

    /// SDL's software renderer drawing on `pixels`, blending what it draws.
    private static func softwareRenderer(on pixels: UnsafeMutablePointer<SDL_Surface>) -> OpaquePointer? {
        let renderer = SDL_CreateSoftwareRenderer(pixels)
        if let renderer { SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND) }
        return renderer
    }

    /// Re-reads the output size after a window or display-mode change; true when it changed.
    @discardableResult
    public func refreshOutputSize() -> Bool {
        if windowPixels != nil, let pixels = currentFramebuffer(),
           pixels != windowPixels || Int(pixels.pointee.w) != outputSize.width || Int(pixels.pointee.h) != outputSize.height {
            // A new framebuffer after a resize (possibly at the old one's address): a new
            // renderer on it, and textures made again.
            guard let software = Self.softwareRenderer(on: pixels) else { return false }
            keepPictures([], keepingPixels: true)
            if let rotationTarget { SDL_DestroyTexture(rotationTarget) }
            rotationTarget = nil
            SDL_DestroyRenderer(renderer)
            renderer = software
            if window == nil, let old = windowPixels, old != pixels { SDL_FreeSurface(old) }
            windowPixels = pixels
        }
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        let new = Size(width: Int(w), height: Int(h))
        guard new != outputSize, w > 0, h > 0 else { return false }
        outputSize = new
        if let rotationTarget { SDL_DestroyTexture(rotationTarget) }
        rotationTarget = nil
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

    /// On the console: whether the screen went away, came back or changed its mode since
    /// the last look. A screen that went away is let go (the loop keeps running); the next
    /// look tries to open one again (any device with a screen, unless `--drm-device` names one).
    public func consoleChanged() -> ConsoleChange {
        guard isConsole else { return .same }
        var lost = false
        if let console {
            guard console.connectionChanged() else { return .same }
            self.console = nil
            lost = true
        }
        guard let output = try? DRMOutput.open(requested: drmDevice) else {
            return lost ? .lost : .same
        }
        console = output
        return .opened(output.description)
    }

    /// What `consoleChanged` found.
    public enum ConsoleChange: Equatable {
        case same
        /// The screen went away and no other is connected.
        case lost
        /// A screen to draw on (again): device, connector and mode.
        case opened(String)
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

    // MARK: frames

    /// Starts a frame: drawing goes to the layout-sized surface.
    public func beginFrame() {
        if rotation != .none {
            if rotationTarget == nil {
                let size = layoutSize
                rotationTarget = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                                   Int32(SDL_TEXTUREACCESS_TARGET.rawValue),
                                                   Int32(size.width), Int32(size.height))
            }
            SDL_SetRenderTarget(renderer, rotationTarget)
        }
    }

    /// Finishes a frame: turns it onto the output, writes `snapshotPath` as PNG when given,
    /// and presents it.
    public func endFrame(snapshotPath: String?) throws {
        if rotation != .none, let rotationTarget {
            SDL_SetRenderTarget(renderer, nil)
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
            SDL_RenderClear(renderer)
            let layout = layoutSize
            var dst = SDL_Rect(x: Int32((outputSize.width - layout.width) / 2),
                               y: Int32((outputSize.height - layout.height) / 2),
                               w: Int32(layout.width), h: Int32(layout.height))
            SDL_RenderCopyEx(renderer, rotationTarget, nil, &dst, Double(rotation.rawValue), nil, SDL_FLIP_NONE)
        }
        if let snapshotPath { try writePNG(snapshotPath) }
        if window == nil, let windowPixels {
            SDL_RenderFlush(renderer)
            try console?.present(windowPixels)
        } else if windowPixels != nil {
            SDL_RenderFlush(renderer)
            SDL_UpdateWindowSurface(window)
        } else {
            SDL_RenderPresent(renderer)
        }
    }

    /// Reads the frame back and saves it as a PNG.
    private func writePNG(_ path: String) throws {
        guard let surface = SDL_CreateRGBSurfaceWithFormat(0, Int32(outputSize.width), Int32(outputSize.height), 32,
                                                           SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { throw DisplayError.sdl("allocating a snapshot", sdlErrorText()) }
        defer { SDL_FreeSurface(surface) }
        guard SDL_RenderReadPixels(renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, surface.pointee.pixels,
                                   surface.pointee.pitch) == 0
        else { throw DisplayError.sdl("reading the frame back", sdlErrorText()) }
        // Keep the PNG opaque whatever the framebuffer's alpha holds.
        SDL_SetSurfaceBlendMode(surface, SDL_BLENDMODE_NONE)
        guard let opaque = SDL_CreateRGBSurfaceWithFormat(0, surface.pointee.w, surface.pointee.h, 24,
                                                          SDL_PIXELFORMAT_RGB24.rawValue)
        else { throw DisplayError.sdl("allocating a snapshot", sdlErrorText()) }
        defer { SDL_FreeSurface(opaque) }
        splash_blit_surface(surface, nil, opaque, nil)
        guard IMG_SavePNG(opaque, path) == 0 else {
            throw DisplayError.sdl("writing \(path)", sdlErrorText())
        }
    }

    // MARK: primitives

    func setColor(_ c: RGBColor, alpha: UInt8 = 255) {
        SDL_SetRenderDrawColor(renderer, c.red, c.green, c.blue, alpha)
    }

    /// Fills the whole frame.
    public func clear(_ color: RGBColor) {
        setColor(color)
        SDL_RenderClear(renderer)
    }

    /// Fills a rectangle.
    public func fill(_ r: Rect, _ color: RGBColor, alpha: UInt8 = 255) {
        setColor(color, alpha: alpha)
        var rect = SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
        SDL_RenderFillRect(renderer, &rect)
    }

    /// Fills a rectangle with rounded corners of `radius`, with anti-aliased left and right
    /// edges (one partly covered pixel per row and side).
    public func fillRoundedRect(_ r: Rect, radius: Int, _ color: RGBColor, alpha: UInt8 = 255) {
        guard r.width > 0, r.height > 0 else { return }
        let rad = Double(min(radius, r.width / 2, r.height / 2))
        var spans: [SDL_Rect] = []
        spans.reserveCapacity(r.height)
        var edges: [(y: Int32, left: Int32, right: Int32, coverage: Double)] = []
        for row in 0..<r.height {
            let cy = Double(row) + 0.5
            let dy: Double
            if cy < rad { dy = rad - cy } else if cy > Double(r.height) - rad { dy = cy - (Double(r.height) - rad) } else { dy = 0 }
            let inset = dy > 0 ? rad - (rad * rad - dy * dy).squareRoot() : 0
            let whole = Int(inset.rounded(.up))
            let y = Int32(r.y + row)
            let width = r.width - 2 * whole
            if width > 0 {
                spans.append(SDL_Rect(x: Int32(r.x + whole), y: y, w: Int32(width), h: 1))
            }
            let coverage = Double(whole) - inset
            if coverage > 0.02, whole > 0 {
                edges.append((y, Int32(r.x + whole - 1), Int32(r.maxX - whole), coverage))
            }
        }
        setColor(color, alpha: alpha)
        SDL_RenderFillRects(renderer, spans, Int32(spans.count))
        for e in edges {
            setColor(color, alpha: UInt8(Double(alpha) * e.coverage))
            SDL_RenderDrawPoint(renderer, e.left, e.y)
            SDL_RenderDrawPoint(renderer, e.right, e.y)
        }
    }

    // MARK: frames drawn ahead

    /// A frame drawn ahead of time off the screen; showing it is one copy.
    public final class PreparedFrame {
        fileprivate let pixels: UnsafeMutablePointer<SDL_Surface>
        fileprivate init(_ pixels: UnsafeMutablePointer<SDL_Surface>) { self.pixels = pixels }
        deinit { SDL_FreeSurface(pixels) }
    }

    /// Runs `draw` against an off-screen frame of the output's size and returns that frame;
    /// nil where frames are not drawn in software onto the window's pixels (KMSDRM, rotated).
    public func prepareFrame(_ draw: () -> Void) -> PreparedFrame? {
        guard drawsOntoWindowPixels, let windowPixels,
              let pixels = DecodedPicture.blank(width: Int(windowPixels.pointee.w), height: Int(windowPixels.pointee.h),
                                                like: windowPixels.pointee.format)
        else { return nil }
        guard let offscreen = Self.softwareRenderer(on: pixels) else {
            SDL_FreeSurface(pixels)
            return nil
        }
        // Textures belong to the renderer that made them: the window's wait aside meanwhile.
        let windowTextures = pictures.filter { if case .texture = $0.value.picture { true } else { false } }
        for path in windowTextures.keys { pictures[path] = nil }
        let onScreen = (renderer, windowPixels)
        (renderer, self.windowPixels) = (offscreen, pixels)
        draw()
        SDL_RenderFlush(offscreen)
        for (path, entry) in pictures {
            if case .texture(let texture) = entry.picture {
                SDL_DestroyTexture(texture)
                pictures[path] = nil
            }
        }
        pictures.merge(windowTextures) { mine, _ in mine }
        (renderer, self.windowPixels) = onScreen
        SDL_DestroyRenderer(offscreen)
        return PreparedFrame(pixels)
    }

    /// Copies a prepared frame onto the frame being drawn; false when it no longer fits
    /// (the output changed size).
    public func draw(_ frame: PreparedFrame) -> Bool {
        guard drawsOntoWindowPixels, let windowPixels, frame.pixels.pointee.w == windowPixels.pointee.w,
              frame.pixels.pointee.h == windowPixels.pointee.h
        else { return false }
        SDL_RenderFlush(renderer)
        SDL_SetSurfaceBlendMode(frame.pixels, SDL_BLENDMODE_NONE)
        return splash_blit_surface(frame.pixels, nil, windowPixels, nil) == 0
    }

    // MARK: pictures

    /// The pixel size of the decoded image at `path` (decoded once, kept until `keepPictures`).
    public func imageSize(_ path: String) throws -> Size {
        try picture(path).size
    }

    /// Hands over a picture already decoding, for the frame that will show it.
    public func expect(_ picture: PendingPicture) {
        pending[picture.path] = picture
    }

    private func picture(_ path: String) throws -> (picture: Picture, size: Size) {
        if let cached = pictures[path] { return cached }
        let surface: UnsafeMutablePointer<SDL_Surface>
        do {
            if let early = pending.removeValue(forKey: path) {
                surface = try early.take()
            } else {
                surface = try ImageDecoder.load(path)
            }
        } catch {
            throw DisplayError.badImage(path: path, reason: error.localizedDescription)
        }
        let size = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        let entry: (picture: Picture, size: Size)
        if drawsOntoWindowPixels, !DecodedPicture.hasTransparency(surface) {
            // Opaque pictures stay as decoded and are blitted onto the frame: no texture copy.
            entry = (.pixels(DecodedPicture(surface)), size)
        } else {
            defer { SDL_FreeSurface(surface) }
            guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else {
                throw DisplayError.badImage(path: path, reason: sdlErrorText())
            }
            SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
            entry = (.texture(texture), size)
        }
        pictures[path] = entry
        return entry
    }

    /// Pictures go straight onto the window's pixels when the frame is drawn there unrotated.
    private var drawsOntoWindowPixels: Bool { windowPixels != nil && rotation == .none }

    /// Frees decoded images other than `paths`.
    public func keepPictures(_ paths: Set<String>) {
        keepPictures(paths, keepingPixels: false)
    }

    private func keepPictures(_ paths: Set<String>, keepingPixels: Bool) {
        pending = pending.filter { paths.contains($0.key) }
        for (path, entry) in pictures where !paths.contains(path) {
            switch entry.picture {
            case .texture(let texture):
                SDL_DestroyTexture(texture)
            case .pixels:
                if keepingPixels { continue }
            }
            pictures[path] = nil
        }
    }

    /// Draws part of a texture into a rectangle, scaled.
    func draw(_ texture: OpaquePointer, from source: Rect?, to destination: Rect) {
        var dst = SDL_Rect(destination)
        if let source {
            var src = SDL_Rect(source)
            SDL_RenderCopy(renderer, texture, &src, &dst)
        } else {
            SDL_RenderCopy(renderer, texture, nil, &dst)
        }
    }

    /// Draws an image fitted (letterboxed) or filled (cropped) into `box`.
    public func drawImage(_ path: String, in box: Rect, mode: ImageFit) throws {
        let (picture, size) = try picture(path)
        let placement = mode.placement(of: size, on: Size(width: box.width, height: box.height))
        var dst = placement.destination
        dst.x += box.x
        dst.y += box.y
        let source = placement.source
        switch picture {
        case .pixels(let decoded):
            guard let windowPixels else { return }
            // What the renderer has queued goes first, then the picture straight onto the frame.
            SDL_RenderFlush(renderer)
            if decoded.draw(source, to: dst, on: windowPixels) { return }
            // A rectangle the blitters refuse (they do not clip): through a texture instead.
            guard let texture = SDL_CreateTextureFromSurface(renderer, decoded.pixels) else {
                throw DisplayError.badImage(path: path, reason: sdlErrorText())
            }
            defer { SDL_DestroyTexture(texture) }
            SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
            draw(texture, from: decoded.held(source), to: dst)
        case .texture(let texture):
            draw(texture, from: source, to: dst)
        }
    }

    /// Draws one line of text with its top-left at `origin`; returns its size.
    @discardableResult
    public func drawText(_ text: String, at origin: Point, fonts: FontBook, size: Int, bold: Bool = false,
                         color: RGBColor, alpha: UInt8 = 255) -> Size {
        let c = SDL_Color(r: color.red, g: color.green, b: color.blue, a: alpha)
        guard let surface = fonts.render(text, size: size, bold: bold, color: c) else { return Size(width: 0, height: 0) }
        defer { SDL_FreeSurface(surface) }
        let measured = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return measured }
        defer { SDL_DestroyTexture(texture) }
        draw(texture, from: nil, to: Rect(x: origin.x, y: origin.y, width: measured.width, height: measured.height))
        return measured
    }

    /// Decodes a JPEG held in memory (a thumbnail from the database) and draws it fitted
    /// into `box`; false when it cannot be decoded.
    @discardableResult
    public func drawJPEG(_ bytes: [UInt8], in box: Rect) -> Bool {
        guard ImageHeader.kind(of: Array(bytes.prefix(3))) == .jpeg else { return false }
        let surface: UnsafeMutablePointer<SDL_Surface>? = bytes.withUnsafeBytes { raw in
            guard let rw = SDL_RWFromConstMem(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { SDL_RWclose(rw) }
            return IMG_LoadJPG_RW(rw)
        }
        guard let surface else { return false }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return false }
        defer { SDL_DestroyTexture(texture) }
        SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear)
        let size = Size(width: Int(surface.pointee.w), height: Int(surface.pointee.h))
        var placed = ImageFit.fit.placement(of: size, on: Size(width: box.width, height: box.height)).destination
        placed.x += box.x
        placed.y += box.y
        draw(texture, from: nil, to: placed)
        return true
    }
}

extension SDL_Rect {
    init(_ r: Rect) {
        self.init(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
    }
}
