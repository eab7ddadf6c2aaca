import FoundationEssentials
import SplashCore

/// The output frames go to, as one: a window (or, headless, no display) and its
/// canvas, or on the console a canvas for each screen connected, the first the one the core
/// lays out for. It owns the list of screens, each a `ScreenOutput` behind its canvas, and
/// is the one place that knows whether they are the console's: those are followed as they
/// are unplugged, plugged in or change mode (`Screens+Console`), given up and taken back on
/// a terminal switch, and read input from evdev (`Screens+Input`). Their signal is turned
/// off and on together, a window's included.
public final class Screens {
    /// The first screen's canvas: the core's layout is its. It stays the same object while
    /// the console's screens come and go (it takes the first screen there is).
    public let first: Canvas
    /// On the console, a canvas for each other screen connected, laid out for its own size
    /// and turn, sharing the first one's decoded pictures.
    var others: [Canvas]
    /// What the console is asked to draw on (`drm-device`, `fb-device`, `drm-mode`); nil
    /// for a window (or none, headless), whose one screen is never looked for again.
    let consoleRequest: ConsoleRequest?
    /// What the KMS devices had connected at the last look (`DRMDevice.connectedScreens`).
    var lastConnected: Set<String> = []
    /// The virtual terminal held in graphics mode while a framebuffer is drawn on; nil
    /// elsewhere.
    var terminal: VirtualTerminal?
    /// The console's display signal is off (the screen schedule): a switch back to the
    /// kiosk's terminal, whose modeset would light it, turns it off again.
    var signalOff = false
    /// Switched back, but a device's master could not be taken yet.
    var wantsScreensBack = false

    /// Every screen's canvas, the first first.
    public var all: [Canvas] { [first] + others }
    /// SDL's video driver (`dummy`, `x11`, `wayland`, `kmsdrm`), or on the console what
    /// draws on its screens (`drm`, `fbdev`).
    public var driver: String { first.driver }
    /// Which screens are drawn on, on the console: device, connector and mode of each, the
    /// first first; none in a window.
    public var names: [String] { consoleRequest == nil ? [] : all.compactMap { $0.output?.description } }
    /// How many screens show the kiosk.
    public var count: Int { consoleRequest == nil ? 1 : names.count }

    /// A window's one screen.
    public init(window: Canvas) {
        first = window
        others = []
        consoleRequest = nil
    }

    /// Screens already made (the tests: console frames with no screen behind them).
    init(console first: Canvas, others: [Canvas], request: ConsoleRequest = ConsoleRequest()) {
        self.first = first
        self.others = others
        consoleRequest = request
    }

    /// Opens the console's screens: a frame in memory that each present copies into a KMS
    /// dumb buffer or a framebuffer, one canvas for each screen connected. SDL is not loaded.
    public convenience init(console request: ConsoleRequest, rotation: Rotation) throws {
        let outputs = try ConsoleScreens.openAll(request)
        let first = try Canvas(consoleFrame: outputs[0].size, output: outputs[0], rotation: rotation)
        let others = try outputs.dropFirst().map {
            try Canvas(consoleFrame: $0.size, output: $0, rotation: rotation, shelf: first.shelf)
        }
        self.init(console: first, others: others, request: request)
        lastConnected = DRMDevice.connectedScreens(requested: request.drm, open: openDevices)
        holdTerminal()
    }

    /// On a framebuffer the text console shares the kiosk's memory: the terminal is held in
    /// graphics mode, so neither its cursor nor a kernel message draws over the frames. On
    /// a DRM device the console draws into a frame of its own that is not on the screen
    /// while the kiosk's is, and the terminal is left as it is.
    func holdTerminal() {
        if first.output is FramebufferOutput {
            if terminal == nil { terminal = VirtualTerminal.enterGraphics() }
        } else {
            terminal = nil
        }
    }

    /// Reads each screen's size again; true when the first one's changed (the core is told).
    public func refreshSizes() -> Bool {
        let changed = first.refreshOutputSize()
        for other in others { other.refreshOutputSize() }
        return changed
    }

    /// Frees decoded pictures other than `paths`, on every screen.
    public func releasePictures(except paths: Set<String>) {
        for screen in all { screen.releasePictures(except: paths) }
    }

    /// Lets go of the pictures whose files were replaced in the cache since they were read,
    /// on every screen: the next frame that needs one reads the new file. Whether any was
    /// (frames drawn ahead with them are then out of date).
    @discardableResult
    public func forgetChangedPictures() -> Bool {
        let changed = first.shelf.forgetChanged()
        guard !changed.isEmpty else { return false }
        return true
    }

    /// Turns the display signal of every screen off or on (on the console, kept off across
    /// a terminal switch): what each screen did, or why it could not; nothing for one with
    /// no signal of its own to turn.
    func setSignal(_ on: Bool) -> [Result<String, any Error>] {
        signalOff = !on
        return all.compactMap(\.output).compactMap { screen in
            do {
                return try screen.setSignal(on).map { .success("signal \(screen.name) \($0)") }
            } catch {
                return .failure(error)
            }
        }
    }
}
