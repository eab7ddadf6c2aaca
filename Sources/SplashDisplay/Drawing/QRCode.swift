import CQRencode
import SplashCore

/// A QR code of a campaign's `linkUrl` for the detail screen, made with libqrencode: dark
/// modules on white with a quiet zone of 4 modules, each module as `LinkCodeSize` sizes it
/// for the screen.
struct QRCode {
    /// Modules per side, quiet zone included.
    let size: Int
    private let dark: [Bool]

    static let quietZone = LinkCodeSize.quietZone

    /// The code for `text`; nil when it does not fit a QR code.
    init?(_ text: String) {
        guard let code = splash_qr_encode(text) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width + 2 * Self.quietZone
        var modules = [Bool](repeating: false, count: size * size)
        for y in 0..<width {
            for x in 0..<width where splash_qr_dark(code, Int32(x), Int32(y)) != 0 {
                modules[(y + Self.quietZone) * size + x + Self.quietZone] = true
            }
        }
        dark = modules
    }


    func isDark(_ x: Int, _ y: Int) -> Bool { dark[y * size + x] }

    /// Draws the code with its top-left corner at `origin`, `module` pixels a module: white,
    /// then each dark run of a row as one rectangle.
    func draw(on surface: Surface, at origin: Point, module: Int) {
        surface.fill(Rect(x: origin.x, y: origin.y, width: size * module, height: size * module), .white)
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x, y) else { x += 1; continue }
                let start = x
                while x < size && isDark(x, y) { x += 1 }
                surface.fill(Rect(x: origin.x + start * module, y: origin.y + y * module,
                                      width: (x - start) * module, height: module), .black)
            }
        }
    }
}
