import FoundationEssentials

/// Problems of the display side, each with what to do about it.
public enum DisplayError: LocalizedError, Equatable {
    /// No display could be opened (no X11/Wayland session, no DRM device).
    case noDisplay(String)
    /// A window was asked for, and SDL2, which draws it, cannot be loaded.
    case noWindowLibrary(String)
    /// No font that can draw Chinese was found.
    case noCJKFont(String)
    /// The font file given with `--font` cannot be used.
    case badFont(path: String, reason: String)
    /// An image cannot be decoded.
    case badImage(path: String, reason: String)
    /// The `--snapshot` folder cannot be made or written.
    case snapshotFolder(path: String, reason: String)
    /// The display signal cannot be turned as asked: why, and what is left of the change.
    case signal(String)
    /// Any other failure of the output or of drawing (memory, a window, a frame not shown).
    case sdl(String, String)

    /// The problem in words for the operator, with what to do where that is known.
    public var errorDescription: String? {
        switch self {
        case .noDisplay(let reason):
            return "no display found (\(reason)); run with --headless to work without one"
        case .noWindowLibrary(let reason):
            return "a window needs SDL2, which cannot be loaded (\(reason)); install it (apt install libsdl2-2.0-0), "
                + "or run on the console: with DISPLAY, WAYLAND_DISPLAY and SDL_VIDEODRIVER unset, the kiosk draws "
                + "through KMS without SDL"
        case .noCJKFont(let reason):
            return "no font that can draw Chinese was found (\(reason)); install fonts-wqy-microhei or fonts-noto-cjk, or pass --font PATH"
        case let .badFont(path, reason):
            return "cannot use the font \(path): \(reason)"
        case let .badImage(path, reason):
            return "cannot show \(path): \(reason)"
        case let .snapshotFolder(path, reason):
            return "--snapshot \(path): cannot write snapshots there (\(reason)); name a folder this user can write"
        case .signal(let reason):
            return reason
        case let .sdl(what, reason):
            return "\(what) failed: \(reason)"
        }
    }
}
