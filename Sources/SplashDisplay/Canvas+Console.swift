import CSDL2
import CX11
import Foundation
import SplashCore
import SplashServices

/// The console's screen followed: unplugged, back, or in another mode.
extension Canvas {
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
        guard let output = try? ConsoleScreens.open(drm: drmDevice, framebuffer: framebufferDevice) else {
            return lost ? .lost : .same
        }
        console = output
        // Moving from a framebuffer to a DRM device, the terminal goes back to text before
        // the kiosk's first frame there: the console's own modeset comes first, not after it.
        holdTerminal()
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
}
