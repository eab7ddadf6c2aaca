import FoundationEssentials
import SplashCore
import SplashPictures

/// Pixels written as a PNG: snapshots, screenshots and the contact sheet.
extension Pixmap {
    /// The pixels as an opaque PNG (24-bit rows, whatever a 32-bit pixel's fourth byte
    /// holds); a failure is `DisplayError.sdl(what, …)`.
    func png(_ what: String) throws -> Data {
        let rows: Pixmap
        if format == .rgb24 {
            rows = self
        } else {
            guard let copied = Pixmap(width: width, height: height, format: .rgb24) else {
                throw DisplayError.sdl(what, "not enough memory")
            }
            copied.copy(self)
            rows = copied
        }
        do {
            return try PNGEncoder.encode(rows.pixels, width: rows.width, height: rows.height, pitch: rows.pitch)
        } catch {
            throw DisplayError.sdl(what, error.explained)
        }
    }

    /// Writes the pixels as a PNG at `path`.
    func writePNG(_ path: String) throws {
        do {
            try png("writing \(path)").write(to: URL(fileURLWithPath: path))
        } catch let error as DisplayError {
            throw error
        } catch {
            throw DisplayError.sdl("writing \(path)", error.explained)
        }
    }
}
