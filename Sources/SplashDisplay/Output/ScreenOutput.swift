import FoundationEssentials
import SplashCore

/// A screen that frames are shown on: a KMS output (`DRMOutput`) or a framebuffer device
/// (`FramebufferOutput`) on the console, or a window (`SDLWindow`). Frames are drawn as
/// XRGB8888 in memory and each `present` puts one on the screen. `Screens` owns the list
/// of them; nothing else asks which kind a screen is.
protocol ScreenOutput: AnyObject {
    /// The output's size in pixels (a console screen's mode, a window's framebuffer).
    var size: Size { get }
    /// Device, connector or name, and mode: for the `started` and `output` events.
    var description: String { get }
    /// The connector's name (`HDMI-A-1`) or the framebuffer's (`EFI VGA`): what a touch
    /// device's `WL_OUTPUT` udev property names to belong to this screen.
    var name: String { get }
    /// What draws on it, as the `started` event names it: `drm` or `fbdev` on the console,
    /// SDL's video driver (`x11`, `wayland`, `kmsdrm`) in a window.
    var driver: String { get }
    /// How frames reach it: `software` (drawn in memory and copied), or the render driver
    /// SDL uploads them with where a window has no framebuffer.
    var rendererName: String { get }
    /// The turn the screen's mounting asks for (a panel's "panel orientation"), before the
    /// config's `rotate`.
    var orientation: Rotation { get }
    /// The output's own memory, laid out as frames are, for frames to be drawn in
    /// straight (a window's framebuffer); nil where frames are drawn in memory of the
    /// kiosk's own and copied.
    func framebuffer() -> Pixmap?
    /// Shows `frame` (XRGB8888, the screen's size), of which only `damage` changed since
    /// the last present (nil: all of it): only what changed is copied to the screen, and
    /// nothing when `frame` is the buffer it is shown from (`bufferForFirstFrame`,
    /// `framebuffer`). False when the output's own memory the frame was drawn in was made
    /// anew (a window resized): nothing was shown, and the frame is to be made again.
    @discardableResult
    func present(_ frame: Pixmap, damage: Rect?) throws -> Bool
    /// The memory the first frame will be shown from, to be drawn in straight (the first
    /// splash composed ahead): its present then copies nothing. Nil once a frame has been
    /// shown, and where the screen has no buffer out of sight (a framebuffer device, which
    /// shows what is written to it at once; a window).
    func bufferForFirstFrame() -> Pixmap?
    /// Turns the display signal off (`on` false) or back on, the frame kept, so that waking
    /// is one call; returns how (`atomic`, `dpms`, `blank`, `x11 dpms`), nil where the
    /// output has no signal of its own to turn (a Wayland window), or throws why it cannot.
    func setSignal(_ on: Bool) throws -> String?
    /// Puts the last frame back on the screen (after a switch back from another terminal).
    func reassert() throws
    /// Whether the kiosk should look for its screen again: this one went away, changed
    /// its mode, or (a framebuffer) a KMS device with a screen has come to take over.
    func connectionChanged() -> Bool
}

extension ScreenOutput {
    var rendererName: String { "software" }
    func framebuffer() -> Pixmap? { nil }
    func bufferForFirstFrame() -> Pixmap? { nil }
    func reassert() throws {}
    func connectionChanged() -> Bool { false }
}
