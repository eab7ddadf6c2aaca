import CSDL2
import Glibc

/// SDL2, loaded with `dlopen` when a window is opened: the display program links no SDL,
/// so the console kiosk (which draws through KMS or the framebuffer itself) never loads it
/// nor the fifty libraries Debian's SDL2 brings (audio, X11, Wayland). Each function the
/// window uses, looked up once by name, with its C signature.
struct SDLLibrary {
    typealias Window = OpaquePointer
    typealias SurfacePointer = UnsafeMutablePointer<SDL_Surface>
    typealias EventPointer = UnsafeMutablePointer<SDL_Event>

    let setHint: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> SDL_bool
    let wasInit: @convention(c) (UInt32) -> UInt32
    let initSubSystem: @convention(c) (UInt32) -> Int32
    let quitSubSystem: @convention(c) (UInt32) -> Void
    let getCurrentVideoDriver: @convention(c) () -> UnsafePointer<CChar>?
    let getError: @convention(c) () -> UnsafePointer<CChar>?
    let getDesktopDisplayMode: @convention(c) (Int32, UnsafeMutablePointer<SDL_DisplayMode>?) -> Int32
    let getDisplayBounds: @convention(c) (Int32, UnsafeMutablePointer<SDL_Rect>?) -> Int32
    let createWindow: @convention(c) (UnsafePointer<CChar>?, Int32, Int32, Int32, Int32, UInt32) -> Window?
    let destroyWindow: @convention(c) (Window?) -> Void
    let getWindowSurface: @convention(c) (Window?) -> SurfacePointer?
    let updateWindowSurface: @convention(c) (Window?) -> Int32
    let updateWindowSurfaceRects: @convention(c) (Window?, UnsafePointer<SDL_Rect>?, Int32) -> Int32
    let getWindowSize: @convention(c) (Window?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Void
    let showCursor: @convention(c) (Int32) -> Int32
    let disableScreenSaver: @convention(c) () -> Void
    let enableScreenSaver: @convention(c) () -> Void
    let createSurfaceFrom: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32, Int32, UInt32) -> SurfacePointer?
    let freeSurface: @convention(c) (SurfacePointer?) -> Void
    let upperBlit: @convention(c) (SurfacePointer?, UnsafePointer<SDL_Rect>?, SurfacePointer?,
                                   UnsafeMutablePointer<SDL_Rect>?) -> Int32
    let setSurfaceBlendMode: @convention(c) (SurfacePointer?, SDL_BlendMode) -> Int32
    let createRenderer: @convention(c) (Window?, Int32, UInt32) -> OpaquePointer?
    let destroyRenderer: @convention(c) (OpaquePointer?) -> Void
    let getRendererInfo: @convention(c) (OpaquePointer?, UnsafeMutablePointer<SDL_RendererInfo>?) -> Int32
    let getRendererOutputSize: @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?,
                                               UnsafeMutablePointer<Int32>?) -> Int32
    let createTexture: @convention(c) (OpaquePointer?, UInt32, Int32, Int32, Int32) -> OpaquePointer?
    let destroyTexture: @convention(c) (OpaquePointer?) -> Void
    let updateTexture: @convention(c) (OpaquePointer?, UnsafePointer<SDL_Rect>?, UnsafeRawPointer?, Int32) -> Int32
    let renderCopy: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafePointer<SDL_Rect>?, UnsafePointer<SDL_Rect>?) -> Int32
    let renderPresent: @convention(c) (OpaquePointer?) -> Void
    let waitEventTimeout: @convention(c) (EventPointer?, Int32) -> Int32
    let pollEvent: @convention(c) (EventPointer?) -> Int32
    let pushEvent: @convention(c) (EventPointer?) -> Int32
    let registerEvents: @convention(c) (Int32) -> UInt32
    let pumpEvents: @convention(c) () -> Void

    /// The library's file name, as Debian's libsdl2-2.0-0 installs it.
    static let soname = "libSDL2-2.0.so.0"

    /// SDL2 once it is loaded (a failure is not kept: the library may be installed since).
    nonisolated(unsafe) private static var loaded: SDLLibrary?

    /// SDL2, loaded the first time it is asked for; `DisplayError.noWindowLibrary` when it
    /// cannot be.
    static func shared() throws -> SDLLibrary {
        if let loaded { return loaded }
        let made = try SDLLibrary()
        loaded = made
        return made
    }

    private init() throws {
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw DisplayError.noWindowLibrary(dlerror().map { String(cString: $0) } ?? Self.soname)
        }
        func symbol<T>(_ name: String) throws -> T {
            guard let address = dlsym(handle, name) else {
                throw DisplayError.noWindowLibrary("\(Self.soname) has no \(name): not Debian's SDL2 2.x")
            }
            return unsafeBitCast(address, to: T.self)
        }
        setHint = try symbol("SDL_SetHint")
        wasInit = try symbol("SDL_WasInit")
        initSubSystem = try symbol("SDL_InitSubSystem")
        quitSubSystem = try symbol("SDL_QuitSubSystem")
        getCurrentVideoDriver = try symbol("SDL_GetCurrentVideoDriver")
        getError = try symbol("SDL_GetError")
        getDesktopDisplayMode = try symbol("SDL_GetDesktopDisplayMode")
        getDisplayBounds = try symbol("SDL_GetDisplayBounds")
        createWindow = try symbol("SDL_CreateWindow")
        destroyWindow = try symbol("SDL_DestroyWindow")
        getWindowSurface = try symbol("SDL_GetWindowSurface")
        updateWindowSurface = try symbol("SDL_UpdateWindowSurface")
        updateWindowSurfaceRects = try symbol("SDL_UpdateWindowSurfaceRects")
        getWindowSize = try symbol("SDL_GetWindowSize")
        showCursor = try symbol("SDL_ShowCursor")
        disableScreenSaver = try symbol("SDL_DisableScreenSaver")
        enableScreenSaver = try symbol("SDL_EnableScreenSaver")
        createSurfaceFrom = try symbol("SDL_CreateRGBSurfaceWithFormatFrom")
        freeSurface = try symbol("SDL_FreeSurface")
        upperBlit = try symbol("SDL_UpperBlit")
        setSurfaceBlendMode = try symbol("SDL_SetSurfaceBlendMode")
        createRenderer = try symbol("SDL_CreateRenderer")
        destroyRenderer = try symbol("SDL_DestroyRenderer")
        getRendererInfo = try symbol("SDL_GetRendererInfo")
        getRendererOutputSize = try symbol("SDL_GetRendererOutputSize")
        createTexture = try symbol("SDL_CreateTexture")
        destroyTexture = try symbol("SDL_DestroyTexture")
        updateTexture = try symbol("SDL_UpdateTexture")
        renderCopy = try symbol("SDL_RenderCopy")
        renderPresent = try symbol("SDL_RenderPresent")
        waitEventTimeout = try symbol("SDL_WaitEventTimeout")
        pollEvent = try symbol("SDL_PollEvent")
        pushEvent = try symbol("SDL_PushEvent")
        registerEvents = try symbol("SDL_RegisterEvents")
        pumpEvents = try symbol("SDL_PumpEvents")
    }

    /// SDL's last error message.
    func errorText() -> String {
        guard let p = getError() else { return "unknown SDL error" }
        let s = String(cString: p)
        return s.isEmpty ? "unknown SDL error" : s
    }
}
