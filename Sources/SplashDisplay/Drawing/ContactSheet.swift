import FoundationEssentials
import SplashCore
import SplashPictures
import SplashServices

/// One picture of many screens: each PNG scaled into a cell of a grid, with its caption
/// beneath it, on a dark background — `splashboard preview`'s overview of a feed.
public enum ContactSheet {
    /// Writes `shots` (caption and PNG path) in rows of `columns` to the PNG `path`.
    public static func write(_ shots: [(label: String, path: String)], columns: Int, to path: String, fonts: FontBook?) throws {
        let cell = Size(width: 480, height: 300)
        let caption = 28
        let gap = 16
        let columns = max(1, min(columns, shots.count))
        let rows = (shots.count + columns - 1) / columns
        let width = gap + columns * (cell.width + gap)
        let height = gap + rows * (cell.height + caption + gap)
        guard let sheet = Pixmap(width: width, height: height, format: .rgb24) else {
            throw DisplayError.sdl("the contact sheet", "not enough memory")
        }
        sheet.fill(nil, RGBColor(red: 0x20, green: 0x22, blue: 0x26))
        for (index, shot) in shots.enumerated() {
            let x = gap + (index % columns) * (cell.width + gap)
            let y = gap + (index / columns) * (cell.height + caption + gap)
            let loaded = try ImageDecoder.pixmap(shot.path).pixmap
            // Fitted into the cell, its shape kept.
            let w = loaded.width, h = loaded.height
            let scale = min(Double(cell.width) / Double(w), Double(cell.height) / Double(h))
            let dw = max(1, Int(Double(w) * scale)), dh = max(1, Int(Double(h) * scale))
            sheet.draw(loaded, from: loaded.bounds,
                       to: Rect(x: x + (cell.width - dw) / 2, y: y + (cell.height - dh) / 2, width: dw, height: dh))
            if var mask = fonts?.render(shot.label, size: 16, bold: false) {
                mask.width = min(mask.width, cell.width)
                sheet.draw(mask, at: Point(x: x, y: y + cell.height + 4), RGBColor(red: 0xE8, green: 0xEA, blue: 0xED))
            }
        }
        try sheet.writePNG(path)
    }
}
