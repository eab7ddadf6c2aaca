import Foundation
import SplashCore

/// Draws the operator view: the campaign library as a grid of the stored thumbnails
/// (no full picture is decoded for it), each with its standing, the next one marked;
/// beside it (below, in portrait) the feed, cache, poetry and system facts.
struct OperatorRenderer {
    /// The marks on a campaign's card, all in the Chinese fonts the kiosk finds (U+2717 "✗",
    /// for one, is not in WenQuanYi Micro Hei and was drawn as an empty box).
    static let eligibleMark = "✓"
    static let problemMark = "×"
    static let nextMark = "▶"

    var surface: Surface
    var fonts: FontBook

    static let background = RGBColor(red: 0x1B, green: 0x1D, blue: 0x22)
    static let tileColor = RGBColor(red: 0x2A, green: 0x2D, blue: 0x34)
    static let text = RGBColor(red: 0xEC, green: 0xEC, blue: 0xEC)
    static let muted = RGBColor(red: 0x9A, green: 0xA0, blue: 0xA6)
    static let good = RGBColor(red: 0x66, green: 0xBB, blue: 0x6A)
    static let warn = RGBColor(red: 0xFF, green: 0xB3, blue: 0x00)
    static let bad = RGBColor(red: 0xEF, green: 0x53, blue: 0x50)

    func draw(_ view: OperatorScene) {
        let screen = surface.layoutSize
        let short = screen.shorterSide
        let m = max(12, short * 3 / 100)
        surface.clear(Self.background)
        let titleSize = max(16, short * 34 / 1000)
        surface.drawText("运维视图 · Operator view", at: Point(x: m, y: m), fonts: fonts, size: titleSize, bold: true,
                        color: Self.text)
        let hintSize = max(11, short * 18 / 1000)
        let headerBottom = m + fonts.lineHeight(size: titleSize, bold: true)
        surface.drawText("F2 · Ctrl+O · Esc, or 30 s without input, closes it", at: Point(x: m, y: headerBottom),
                        fonts: fonts, size: hintSize, color: Self.muted)
        let top = headerBottom + fonts.lineHeight(size: hintSize) + m / 2

        let grid: Rect
        let panel: Rect
        if screen.isPortrait {
            grid = Rect(x: m, y: top, width: screen.width - 2 * m, height: (screen.height - top) * 60 / 100)
            panel = Rect(x: m, y: grid.maxY + m, width: screen.width - 2 * m, height: screen.height - grid.maxY - 2 * m)
        } else {
            let gridWidth = (screen.width - 3 * m) * 64 / 100
            grid = Rect(x: m, y: top, width: gridWidth, height: screen.height - top - m)
            panel = Rect(x: grid.maxX + m, y: top, width: screen.width - grid.maxX - 2 * m, height: grid.height)
        }
        drawGrid(view.tiles, in: grid, short: short, now: view.now)
        drawFacts(view, in: panel, size: max(11, short * 21 / 1000))
    }

    private func drawGrid(_ tiles: [OperatorTile], in area: Rect, short: Int, now: Date) {
        guard !tiles.isEmpty else {
            surface.drawText("没有活动 · No campaigns in the last good feed", at: Point(x: area.x, y: area.y), fonts: fonts,
                            size: max(12, short * 24 / 1000), color: Self.muted)
            return
        }
        let gap = max(8, short / 80)
        let tileWidth = max(120, short * 25 / 100)
        let columns = max(1, (area.width + gap) / (tileWidth + gap))
        let thumbHeight = tileWidth * 5 / 8
        let lineSize = max(10, tileWidth / 12)
        let line = fonts.lineHeight(size: lineSize)
        let tileHeight = thumbHeight + 3 * line + gap
        let rows = max(1, (area.height + gap) / (tileHeight + gap))
        let shown = min(tiles.count, rows * columns)
        for (i, tile) in tiles.prefix(shown).enumerated() {
            let x = area.x + (i % columns) * (tileWidth + gap)
            let y = area.y + (i / columns) * (tileHeight + gap)
            let box = Rect(x: x, y: y, width: tileWidth, height: tileHeight)
            if tile.isNext {
                surface.fillRoundedRect(Rect(x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6),
                                       radius: 10, .widgetYellow)
            }
            surface.fillRoundedRect(box, radius: 8, Self.tileColor)
            let thumb = Rect(x: x + 6, y: y + 6, width: tileWidth - 12, height: thumbHeight - 6)
            if let bytes = tile.thumbnail, surface.drawJPEG(bytes, in: thumb) {
            } else {
                surface.fill(thumb, Self.background)
                surface.drawText("无缩略图", at: Point(x: thumb.x + 6, y: thumb.y + 6), fonts: fonts, size: lineSize,
                                color: Self.muted)
            }
            var ty = y + thumbHeight + 4
            let name = clipped(tile.title ?? tile.id, width: tileWidth - 12, size: lineSize, bold: true)
            surface.drawText(name, at: Point(x: x + 6, y: ty), fonts: fonts, size: lineSize, bold: true, color: Self.text)
            ty += line
            let counts = "\(tile.remaining)/\(tile.showTime)" + (tile.isNext ? "  \(Self.nextMark) next" : "")
            surface.drawText(counts, at: Point(x: x + 6, y: ty), fonts: fonts, size: lineSize,
                            color: tile.isNext ? .widgetYellow : Self.muted)
            ty += line
            var status = tile.ineligibility.map { "\(Self.problemMark) " + $0 } ?? "\(Self.eligibleMark) eligible"
            if tile.ineligibility != nil, let again = tile.eligibleAgain {
                status += ", " + Self.until(again, from: now)
            }
            surface.drawText(clipped(status, width: tileWidth - 12, size: lineSize, bold: false), at: Point(x: x + 6, y: ty),
                            fonts: fonts, size: lineSize, color: tile.ineligibility == nil ? Self.good : Self.warn)
        }
        if shown < tiles.count {
            surface.drawText("+\(tiles.count - shown) more — splashboard campaigns lists them all",
                            at: Point(x: area.x, y: area.maxY - line), fonts: fonts, size: lineSize, color: Self.muted)
        }
    }

    private func drawFacts(_ view: OperatorScene, in area: Rect, size: Int) {
        var facts: [(String, String, RGBColor)] = []
        let info = view.info
        facts.append(("Device", info?.deviceID ?? "—", Self.text))
        facts.append(("Feed", info?.feedURL ?? "—", Self.text))
        if let success = info?.lastSuccess {
            facts.append(("Last sync", Self.clock(success) + " (" + Self.age(from: success, to: view.now) + ")", Self.good))
        } else {
            facts.append(("Last sync", "never", Self.warn))
        }
        facts.append(("Last error", info?.lastError ?? "none", info?.lastError == nil ? Self.muted : Self.bad))
        facts.append(("Next sync", view.syncRunning ? "running now" : view.nextSync.map(Self.clock) ?? "—", Self.text))
        if let info {
            let used = Double(info.cacheBytes) / 1_048_576
            let cap = Double(info.cacheCapBytes) / 1_048_576
            facts.append(("Cache", String(format: "%.1f MiB of %.0f MiB", used, cap), used > cap * 0.9 ? Self.warn : Self.text))
        }
        facts.append(("Poetry", "\(view.poetrySource.rawValue) · \(view.poetryOrigin)", Self.text))
        facts.append(("Next poem", view.nextPoetry.map(Self.clock) ?? "—", Self.text))
        if let info {
            facts.append(("Version", info.version, Self.text))
            facts.append(("Display", "\(info.driver) · \(info.renderer) · \(info.screen)", Self.text))
        }
        var y = area.y
        let labelSize = max(10, size * 85 / 100)
        for (label, value, color) in facts {
            guard y < area.maxY else { break }
            surface.drawText(label, at: Point(x: area.x, y: y), fonts: fonts, size: labelSize, color: Self.muted)
            y += fonts.lineHeight(size: labelSize)
            let block = TextBlock(value, width: area.width, size: size, maxLines: 3, fonts: fonts)
            block.draw(on: surface, at: Point(x: area.x, y: y), fonts: fonts, color: color)
            y += block.height + size / 2
        }
    }

    private func clipped(_ text: String, width: Int, size: Int, bold: Bool) -> String {
        TextBlock(text, width: width, size: size, bold: bold, maxLines: 1, fonts: fonts).lines.first ?? ""
    }

    /// `2026-11-30 09:15:02`, local time.
    static func clock(_ date: Date) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: date)
    }

    /// `in 40 s`, `in 5 min`, `in 3 h`, `in 2 d`.
    static func until(_ date: Date, from now: Date) -> String {
        let s = max(0, Int(date.timeIntervalSince(now).rounded(.up)))
        switch s {
        case ..<60: return "in \(s) s"
        case ..<3600: return "in \((s + 59) / 60) min"
        case ..<86_400: return "in \(s / 3600) h \((s % 3600) / 60) min"
        default: return "in \(s / 86_400) d"
        }
    }

    /// `12 s ago`, `5 min ago`, `3 h ago`, `2 d ago`.
    static func age(from date: Date, to now: Date) -> String {
        let s = max(0, Int(now.timeIntervalSince(date)))
        switch s {
        case ..<60: return "\(s) s ago"
        case ..<3600: return "\(s / 60) min ago"
        case ..<86_400: return "\(s / 3600) h ago"
        default: return "\(s / 86_400) d ago"
        }
    }
}
