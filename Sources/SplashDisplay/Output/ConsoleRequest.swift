import SplashCore

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
