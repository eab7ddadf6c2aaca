/// Which of a connector's modes the console draws in, as Plymouth chooses: the config's
/// `drm-mode` when the connector has it; else a mode the kernel's command line asked for
/// (`video=HDMI-A-1:1280x720`, which the kernel adds to the list as user-defined); else
/// the connector's preferred mode; else its first.
public enum ModeChoice {
    /// One mode as the connector lists it.
    public struct Mode: Equatable, Sendable {
        public var size: Size
        /// Frames a second, rounded.
        public var refresh: Int
        /// The screen's own preferred mode (`DRM_MODE_TYPE_PREFERRED`).
        public var preferred: Bool
        /// Asked for on the kernel's command line (`DRM_MODE_TYPE_USERDEF`).
        public var userDefined: Bool

        public init(size: Size, refresh: Int, preferred: Bool = false, userDefined: Bool = false) {
            self.size = size
            self.refresh = refresh
            self.preferred = preferred
            self.userDefined = userDefined
        }
    }

    /// The index in `modes` to use, and whether `override` was asked for but not there
    /// (the caller says so once); nil index when there are no modes.
    public static func pick(_ modes: [Mode], override: DisplayMode?) -> (index: Int?, overrideMissing: Bool) {
        if let override {
            let sized = modes.indices.filter { modes[$0].size == override.size }
            let rated = sized.filter { override.refresh == nil || modes[$0].refresh == override.refresh }
            // The same size at the preferred rate before any other rate.
            if let i = rated.first(where: { modes[$0].preferred }) ?? rated.first { return (i, false) }
            if let i = pick(modes, override: nil).index { return (i, true) }
            return (nil, true)
        }
        if let i = modes.firstIndex(where: \.userDefined) { return (i, false) }
        if let i = modes.firstIndex(where: \.preferred) { return (i, false) }
        return (modes.isEmpty ? nil : 0, false)
    }
}
