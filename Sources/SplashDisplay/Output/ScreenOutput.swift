import FoundationEssentials
import SplashCore

/// A screen on the console that frames are shown on: a KMS output (`DRMOutput`) or a
/// framebuffer device (`FramebufferOutput`). Frames are drawn as XRGB8888 in memory and
/// each `present` puts one on the screen.
protocol ConsoleScreen: AnyObject {
    /// The mode's size in pixels.
    var size: Size { get }
    /// Device, connector or name, and mode: for the `started` and `output` events.
    var description: String { get }
    /// The connector's name (`HDMI-A-1`) or the framebuffer's (`EFI VGA`): what a touch
    /// device's `WL_OUTPUT` udev property names to belong to this screen.
    var name: String { get }
    /// What draws on it, as the `started` event names it: `drm` or `fbdev`.
    var driver: String { get }
    /// The turn the screen's mounting asks for (a panel's "panel orientation"), before the
    /// config's `rotate`.
    var orientation: Rotation { get }
    /// Shows `frame` (XRGB8888, the screen's size), of which only `damage` changed since
    /// the last present (nil: all of it): only what changed is copied to the screen, and
    /// nothing when `frame` is the buffer it is shown from (`bufferForFirstFrame`).
    func present(_ frame: Pixmap, damage: Rect?) throws
    /// The memory the first frame will be shown from, to be drawn in straight (the first
    /// splash composed ahead): its present then copies nothing. Nil once a frame has been
    /// shown, and where the screen has no buffer out of sight (a framebuffer device, which
    /// shows what is written to it at once).
    func bufferForFirstFrame() -> Pixmap?
    /// Turns the display signal off (`on` false) or back on, the frame kept, so that waking
    /// is one call; returns how (`atomic`, `dpms`, `blank`), or throws why it cannot.
    func setSignal(_ on: Bool) throws -> String
    /// Puts the last frame back on the screen (after a switch back from another terminal).
    func reassert() throws
    /// Whether the kiosk should look for its screen again: this one went away, changed
    /// its mode, or (a framebuffer) a KMS device with a screen has come to take over.
    func connectionChanged() -> Bool
}

extension ConsoleScreen {
    func bufferForFirstFrame() -> Pixmap? { nil }
}

/// What the console is asked to draw on: from the config's `drm-device`, `fb-device` and
/// `drm-mode`.
public struct ConsoleRequest: Equatable {
    /// The DRM device (`drm-device`); nil: every one with a screen connected.
    public var drm: String?
    /// The framebuffer device (`fb-device`); nil: `/dev/fb0` when no DRM device has a screen.
    public var framebuffer: String?
    /// The mode for each screen that has it (`drm-mode`).
    public var mode: DisplayMode?

    public init(drm: String? = nil, framebuffer: String? = nil, mode: DisplayMode? = nil) {
        self.drm = drm
        self.framebuffer = framebuffer
        self.mode = mode
    }
}

/// Which console screens the kiosk draws on.
enum ConsoleScreens {
    /// Every KMS output with a screen connected (on `drm`, when named), else the
    /// framebuffer device (`framebuffer`, else `/dev/fb0`) — the firmware's (efifb, vesafb,
    /// simplefb) before the GPU's driver has loaded, or a small panel's (fbtft) that has no
    /// other. DRM outputs in `keeping` that are as they were stay set up; the KMS devices
    /// in `devices` (by node) are used as they are open, their master held.
    static func openAll(_ request: ConsoleRequest, keeping: [any ConsoleScreen] = [],
                        devices: [String: DRMDevice] = [:]) throws -> [any ConsoleScreen] {
        do {
            return try DRMOutput.openAll(requested: request.drm, mode: request.mode,
                                         keeping: keeping.compactMap { $0 as? DRMOutput }, devices: devices)
        } catch DisplayError.noDisplay(let noDRM) {
            // A KMS device named by the operator is the one wanted: no framebuffer instead.
            guard request.drm == nil || request.framebuffer != nil else { throw DisplayError.noDisplay(noDRM) }
            if let same = keeping.first(where: { $0 is FramebufferOutput }) { return [same] }
            let path = request.framebuffer ?? DefaultPaths.framebuffer
            do {
                return [try FramebufferOutput.open(path)]
            } catch DisplayError.noDisplay(let noFramebuffer) {
                throw DisplayError.noDisplay("\(noDRM); \(noFramebuffer)")
            }
        }
    }
}
