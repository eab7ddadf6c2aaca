import CSDL2
import Foundation
import SplashCore

/// A screen on the console that frames are shown on: a KMS output (`DRMOutput`) or a
/// framebuffer device (`FramebufferOutput`). Frames are drawn as XRGB8888 in memory and
/// each `present` puts one on the screen.
protocol ConsoleScreen: AnyObject {
    /// The mode's size in pixels.
    var size: Size { get }
    /// Device, connector or name, and mode: for the `started` and `output` events.
    var description: String { get }
    /// What draws on it, as the `started` event names it: `drm` or `fbdev`.
    var driver: String { get }
    /// Shows `frame` (XRGB8888, the screen's size).
    func present(_ frame: UnsafeMutablePointer<SDL_Surface>) throws
    /// Whether the kiosk should look for its screen again: this one went away, changed
    /// its mode, or (a framebuffer) a KMS device with a screen has come to take over.
    func connectionChanged() -> Bool
}

/// Which console screen the kiosk draws on.
enum ConsoleScreens {
    /// A KMS output with a screen connected (on `drm`, when named), else the framebuffer
    /// device (`framebuffer`, else `/dev/fb0`) — the firmware's (efifb, vesafb, simplefb)
    /// before the GPU's driver has loaded, or a small panel's (fbtft) that has no other.
    static func open(drm: String?, framebuffer: String?) throws -> any ConsoleScreen {
        do {
            return try DRMOutput.open(requested: drm)
        } catch DisplayError.noDisplay(let noDRM) {
            // A KMS device named by the operator is the one wanted: no framebuffer instead.
            guard drm == nil || framebuffer != nil else { throw DisplayError.noDisplay(noDRM) }
            let path = framebuffer ?? DefaultPaths.framebuffer
            do {
                return try FramebufferOutput.open(path)
            } catch DisplayError.noDisplay(let noFramebuffer) {
                throw DisplayError.noDisplay("\(noDRM); \(noFramebuffer)")
            }
        }
    }
}
