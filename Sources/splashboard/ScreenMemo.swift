import FoundationEssentials
import SplashCore
import SplashServices

/// The screen size the kiosk drew on last time, kept in a small file of its own in the
/// data folder (`screen`, 0600: read only when this user wrote it), so that the first
/// splash's picture can be decoded at the size it will be drawn at while the window or
/// console is still being opened.
struct ScreenMemo {
    let file: String

    init(dataDir: String) {
        file = dataDir + "/screen"
    }

    /// The layout size written last, if any.
    func read() -> Size? {
        guard let text = UntrustedFile.ownText(file) else { return nil }
        let parts = text.trimmed.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        return Size(width: w, height: h)
    }

    /// Keeps `size` for the next start, when it differs from `kept` (what `read` gave).
    /// Losing it costs only a whole-size decode next time, so a failure to write is ignored.
    func write(_ size: Size, kept: Size?) {
        guard kept != size else { return }
        UntrustedFile.writeOwn(size.description, to: file)
    }

    /// The scale at which the picture at `path` is drawn on `screen` with `fit`: what it
    /// must be decoded with at least. 1 (whole) when either is unknown.
    static func scale(of path: String, on screen: Size?, fit: ImageFit) -> Double {
        guard let screen, let header = try? ImageHeader.read(fromFile: path) else { return 1 }
        return fit.scale(of: Size(width: header.width, height: header.height), on: screen)
    }
}
