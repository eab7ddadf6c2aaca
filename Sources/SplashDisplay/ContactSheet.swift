import CSDL2
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
        guard let sheet = SDL_CreateRGBSurfaceWithFormat(0, Int32(width), Int32(height), 32, SDL_PIXELFORMAT_RGB888.rawValue) else {
            throw DisplayError.sdl("the contact sheet", sdlErrorText())
        }
        defer { SDL_FreeSurface(sheet) }
        _ = SDL_FillRect(sheet, nil, SDL_MapRGB(sheet.pointee.format, 0x20, 0x22, 0x26))
        for (index, shot) in shots.enumerated() {
            let x = gap + (index % columns) * (cell.width + gap)
            let y = gap + (index / columns) * (cell.height + caption + gap)
            let loaded = try ImageDecoder.surface(shot.path).surface
            defer { SDL_FreeSurface(loaded) }
            // Fitted into the cell, its shape kept.
            let w = Int(loaded.pointee.w), h = Int(loaded.pointee.h)
            let scale = min(Double(cell.width) / Double(w), Double(cell.height) / Double(h))
            let dw = max(1, Int(Double(w) * scale)), dh = max(1, Int(Double(h) * scale))
            var target = SDL_Rect(x: Int32(x + (cell.width - dw) / 2), y: Int32(y + (cell.height - dh) / 2), w: Int32(dw), h: Int32(dh))
            guard let converted = SDL_ConvertSurface(loaded, sheet.pointee.format, 0) else { throw DisplayError.sdl(shot.path, sdlErrorText()) }
            defer { SDL_FreeSurface(converted) }
            _ = SDL_SetSurfaceBlendMode(converted, SDL_BLENDMODE_NONE)
            _ = SDL_UpperBlitScaled(converted, nil, sheet, &target)
            if let mask = fonts?.render(shot.label, size: 16, bold: false),
               let text = Surface.surface(of: mask, RGBColor(red: 0xE8, green: 0xEA, blue: 0xED)) {
                defer { SDL_FreeSurface(text) }
                var source = SDL_Rect(x: 0, y: 0, w: min(text.pointee.w, Int32(cell.width)), h: text.pointee.h)
                var place = SDL_Rect(x: Int32(x), y: Int32(y + cell.height + 4), w: source.w, h: source.h)
                _ = SDL_UpperBlit(text, &source, sheet, &place)
            }
        }
        guard let rgb = SDL_ConvertSurfaceFormat(sheet, SDL_PIXELFORMAT_RGB24.rawValue, 0) else {
            throw DisplayError.sdl("writing \(path)", sdlErrorText())
        }
        defer { SDL_FreeSurface(rgb) }
        do {
            try PNGEncoder.encode(rgb.pointee.pixels, width: Int(rgb.pointee.w), height: Int(rgb.pointee.h),
                                  pitch: Int(rgb.pointee.pitch)).write(to: URL(fileURLWithPath: path))
        } catch {
            throw DisplayError.sdl("writing \(path)", error.explained)
        }
    }
}
