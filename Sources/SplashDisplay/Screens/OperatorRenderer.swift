import FoundationEssentials
import SplashCore

/// Draws the operator view: the campaign library as a grid of the stored thumbnails
/// (no full picture is decoded for it), each with its standing, the next one marked;
/// beside it (below, in portrait) the feed, cache, poetry and system facts.
struct OperatorRenderer {
    /// The marks on a campaign's card, all in the Chinese fonts the kiosk finds (U+2717 "✗",
    /// for one, is not in WenQuanYi Micro Hei and was drawn as an empty box).
    static let problemMark = "×"
    static let nextMark = "▶"

    var surface: Surface
    var fonts: FontBook


    func draw(_ view: OperatorScene) {
        let screen = surface.layoutSize
        let short = screen.shorterSide
        let layout = OperatorLayout(screen: screen)
        let m = layout.margin
        surface.clear(Palette.Operator.background)
        surface.drawText("运维视图 · Operator view", at: Point(x: m, y: m), fonts: fonts, size: layout.titleSize, bold: true,
                        color: Palette.Operator.text)
        let hint = view.campaignPage == nil
            ? "Tap a card for its page · swipe or PageUp/PageDown for more · F2, Ctrl+O, Esc or 30 s closes"
            : "Tap, Esc, F2 or Ctrl+O goes back to the library"
        surface.drawText(clipped(hint, width: screen.width - 2 * m, size: layout.hintSize, bold: false),
                        at: Point(x: m, y: m + OperatorLayout.lineHeight(layout.titleSize)),
                        fonts: fonts, size: layout.hintSize, color: Palette.Operator.muted)
        if let page = view.campaignPage {
            drawCampaignPage(page, in: Rect(x: layout.grid.x, y: layout.grid.y, width: screen.width - 2 * m,
                                            height: screen.height - layout.grid.y - m), now: view.now)
            return
        }
        drawGrid(view, layout: layout, short: short)
        drawFacts(view, in: layout.panel, size: layout.factSize, columns: layout.factColumns)
    }

    private func drawGrid(_ view: OperatorScene, layout: OperatorLayout, short: Int) {
        let area = layout.grid
        guard !view.tiles.isEmpty else {
            surface.drawText("没有活动 · No campaigns in the last good feed", at: Point(x: area.x, y: area.y), fonts: fonts,
                            size: max(ScreenGrid.smallestText, short * 24 / 1000), color: Palette.Operator.muted)
            return
        }
        let lineSize = layout.lineSize
        let line = layout.line
        for (slot, tile) in view.tiles.prefix(layout.perPage).enumerated() {
            let box = layout.card(slot)
            let x = box.x
            let y = box.y
            let tileWidth = box.width
            if tile.isNext {
                surface.fillRoundedRect(Rect(x: box.x - 3, y: box.y - 3, width: box.width + 6, height: box.height + 6),
                                       radius: 10, .widgetYellow)
            }
            surface.fillRoundedRect(box, radius: 8, Palette.Operator.tileColor)
            let thumb = Rect(x: x + 6, y: y + 6, width: tileWidth - 12, height: layout.thumbHeight - 6)
            drawThumbnail(tile.thumbnail, in: thumb, size: lineSize)
            var ty = y + layout.thumbHeight + 4
            let name = clipped(tile.title ?? tile.id.rawValue, width: tileWidth - 12, size: lineSize, bold: true)
            surface.drawText(name, at: Point(x: x + 6, y: ty), fonts: fonts, size: lineSize, bold: true, color: Palette.Operator.text)
            ty += line
            let counts = "\(tile.remaining)/\(tile.showLimit)" + (tile.isNext ? "  \(Self.nextMark) next" : "")
            surface.drawText(clipped(counts, width: tileWidth - 12, size: lineSize, bold: false), at: Point(x: x + 6, y: ty),
                            fonts: fonts, size: lineSize, color: tile.isNext ? .widgetYellow : Palette.Operator.muted)
            ty += line
            drawStatus(of: tile, now: view.now, at: Point(x: x + 6, y: ty), width: tileWidth - 12, size: lineSize)
        }
        if view.pageCount > 1 {
            surface.drawText("\(view.page + 1) / \(view.pageCount)", at: layout.indicator, fonts: fonts, size: lineSize,
                            bold: true, color: Palette.Operator.text)
        }
    }

    /// A card's standing in words: eligible, or why not and when it will be ("× outside
    /// its hours, in 7 h 5 min"; compact: "× outside its hours · in 7 h").
    static func status(of tile: OperatorTile, now: Date, compact: Bool = false) -> String {
        var status = tile.ineligibility.map { "\(problemMark) " + $0 } ?? "eligible"
        if tile.ineligibility != nil, let again = tile.eligibleAgain {
            status += (compact ? " · " : ", ") + HumanTime.until(again, from: now, compact: compact)
        }
        return status
    }

    private func drawThumbnail(_ bytes: [UInt8]?, in box: Rect, size: Int) {
        // One frame for every shape: a 4:3 or portrait thumbnail sits in it like a 16:9 one.
        surface.fill(box, Palette.Operator.background)
        if let bytes, surface.drawJPEG(bytes, in: box) { return }
        surface.drawText("无缩略图", at: Point(x: box.x + 6, y: box.y + 6), fonts: fonts, size: size, color: Palette.Operator.muted)
    }

    /// One campaign's page: its thumbnail large, its id, title and text, its rules, and its
    /// last shows with when and how each ended.
    private func drawCampaignPage(_ page: OperatorCampaignPage, in area: Rect, now: Date) {
        let size = max(ScreenGrid.smallestText, surface.layoutSize.shorterSide * 22 / 1000)
        let line = fonts.lineHeight(size: size)
        // Side by side in landscape; in portrait the rules and shows under the campaign, each
        // as wide as the screen's grid (at 16 px a column of half of 480 px holds too little).
        let portrait = area.width < area.height
        let left = portrait ? Rect(x: area.x, y: area.y, width: area.width, height: area.height * 55 / 100)
            : Rect(x: area.x, y: area.y, width: area.width * 45 / 100, height: area.height)
        let thumb = Rect(x: left.x, y: left.y, width: left.width, height: min(left.width * 5 / 8, left.height * 45 / 100))
        // The cached picture, decoded for this size; the stored thumbnail only when there is none.
        surface.fill(thumb, Palette.Operator.background)
        if let path = page.imagePath, (try? surface.drawImage(path, in: thumb, mode: .fit, snap: false)) != nil {
        } else {
            drawThumbnail(page.tile.thumbnail, in: thumb, size: size)
        }
        var y = thumb.maxY + line / 2
        let title = TextBlock(page.campaign.title ?? page.campaign.id.rawValue, width: left.width, size: size * 5 / 4, bold: true,
                              maxLines: 2, fonts: fonts)
        title.draw(on: surface, at: Point(x: left.x, y: y), fonts: fonts, color: Palette.Operator.text)
        y += title.height
        surface.drawText("id: " + page.campaign.id.rawValue, at: Point(x: left.x, y: y), fonts: fonts, size: size, color: Palette.Operator.muted)
        y += line
        drawStatus(of: page.tile, now: now, at: Point(x: left.x, y: y), width: left.width, size: size)
        y += line
        if let detail = page.campaign.detail, y + line <= left.maxY {
            // At the detail screen's line heights (1.6 for Chinese, 1.4 for Latin).
            let leading = DetailLayout.bodyLeading
            let step = TextBlock("中", width: left.width, size: size, leading: leading, grid: 2, fonts: fonts).lineHeight
            let block = TextBlock(detail, width: left.width, size: size, maxLines: max(1, (left.maxY - y) / max(1, step)),
                                  leading: leading, grid: 2, fonts: fonts)
            block.draw(on: surface, at: Point(x: left.x, y: y), fonts: fonts, color: Palette.Operator.text)
        }

        let right = portrait ? Rect(x: area.x, y: left.maxY + line, width: area.width, height: area.maxY - left.maxY - line)
            : Rect(x: left.maxX + size * 2, y: area.y, width: area.maxX - left.maxX - size * 2, height: area.height)
        var ry = right.y
        surface.drawText("Rules", at: Point(x: right.x, y: ry), fonts: fonts, size: size, bold: true, color: Palette.Operator.text)
        ry += line
        for rule in page.rules(in: .current) where ry + line <= right.maxY {
            // A long rule (a link) wraps onto as many lines as it needs, to the page's foot.
            let block = TextBlock(rule, width: right.width, size: size, maxLines: max(1, (right.maxY - ry) / line), fonts: fonts)
            block.draw(on: surface, at: Point(x: right.x, y: ry), fonts: fonts, color: Palette.Operator.muted)
            ry += block.height
        }
        ry += line / 2
        surface.drawText("Last shows", at: Point(x: right.x, y: ry), fonts: fonts, size: size, bold: true, color: Palette.Operator.text)
        ry += line
        guard let shows = page.shows else {
            surface.drawText("…", at: Point(x: right.x, y: ry), fonts: fonts, size: size, color: Palette.Operator.muted)
            return
        }
        if shows.isEmpty {
            surface.drawText("not shown yet", at: Point(x: right.x, y: ry), fonts: fonts, size: size, color: Palette.Operator.muted)
        }
        for show in shows where ry + line <= right.maxY {
            let text = "\(Self.clock(show.shownAt))  \(show.endedBy.rawValue)" + (show.seconds > 0 ? String(cFormat: " · %.1f s", show.seconds) : "")
            surface.drawText(clipped(text, width: right.width, size: size, bold: false), at: Point(x: right.x, y: ry), fonts: fonts,
                            size: size, color: Palette.Operator.text)
            ry += line
        }
    }

    private func drawFacts(_ view: OperatorScene, in area: Rect, size: Int, columns: Int) {
        var facts: [(String, String, RGBColor)] = []
        let info = view.info
        facts.append(("Device", (info?.deviceID ?? "—") + ((info?.groups.isEmpty ?? true) ? "" : " · groups: " + info!.groups.joined(separator: ", ")),
                      Palette.Operator.text))
        facts.append(("Feed", info?.feedURL ?? "—", Palette.Operator.text))
        if let success = info?.lastSuccess {
            facts.append(("Last sync", Self.clock(success) + " (" + HumanTime.age(from: success, to: view.now) + ")", Palette.Operator.good))
        } else {
            facts.append(("Last sync", "never", Palette.Operator.warn))
        }
        if let change = info?.lastChange {
            facts.append(("Last change", Self.clock(change) + " (" + HumanTime.age(from: change, to: view.now) + ")", Palette.Operator.text))
        }
        facts.append(("Last error", info?.lastError ?? "none", info?.lastError == nil ? Palette.Operator.muted : Palette.Operator.bad))
        for problem in info?.problems ?? [] { facts.append(("Problem", problem, Palette.Operator.bad)) }
        if let warnings = info?.warnings, let first = warnings.first {
            facts.append(("Feed warnings", "\(warnings.count): \(first)" + (warnings.count > 1 ? " …" : ""), Palette.Operator.warn))
        }
        facts.append(("Next sync", view.syncRunning ? "running now" : view.nextSync.map(Self.clock) ?? "—", Palette.Operator.text))
        if let info {
            let used = Double(info.cacheBytes) / 1_048_576
            let cap = Double(info.cacheCapBytes) / 1_048_576
            facts.append(("Cache", String(cFormat: "%.1f MiB of %.0f MiB", used, cap), used > cap * 0.9 ? Palette.Operator.warn : Palette.Operator.text))
        }
        facts.append(("Poetry", "\(view.poetrySource.rawValue) · \(view.poetryOrigin)", Palette.Operator.text))
        facts.append(("Next poem", view.nextPoetry.map(Self.clock) ?? "—", Palette.Operator.text))
        if !view.screenPower.isEmpty { facts.append(("Screen", view.screenPower, Palette.Operator.text)) }
        if let info {
            facts.append(("Version", info.version, Palette.Operator.text))
            facts.append(("Display", "\(info.driver) · \(info.renderer) · \(info.screen)", Palette.Operator.text))
        }
        // In columns (two in portrait), filled one after the other; a column's foot is the
        // screen's margin.
        var y = area.y
        let labelSize = max(ScreenGrid.smallestText, size * 85 / 100)
        let labelHeight = fonts.lineHeight(size: labelSize)
        let gutter = columns > 1 ? size * 2 : 0
        let width = (area.width - (columns - 1) * gutter) / columns
        let valueLines = columns > 1 ? 2 : 3
        let perColumn = (facts.count + columns - 1) / columns
        // Each fact's value, laid out once: the columns are measured before anything is drawn.
        let values = facts.map { TextBlock($0.1, width: width, size: size, maxLines: valueLines, fonts: fonts) }
        let columnHeights = (0..<columns).map { column in
            values.indices.filter { $0 / max(1, perColumn) == column }
                .reduce(0) { $0 + labelHeight + values[$1].height + size / 2 }
        }
        // Where the facts, label over value, would run past the foot (a small landscape screen,
        // or many problems), each is one line instead, its label before its value, in the same
        // columns: every fact is kept.
        if (columnHeights.max() ?? 0) > area.height + size / 2 {
            let labelWidth = facts.map { fonts.width(of: $0.0, size: labelSize) }.max() ?? 0
            let line = fonts.lineHeight(size: size)
            let step = min(line * 3 / 2, max(line, area.height / max(1, perColumn)))
            for (index, (label, value, color)) in facts.enumerated() {
                let column = index / max(1, perColumn)
                let row = area.y + (index % max(1, perColumn)) * step
                guard column < columns, row + line <= area.maxY else { continue }
                let x = area.x + column * (width + gutter)
                surface.drawText(label, at: Point(x: x, y: row + (size - labelSize) / 2), fonts: fonts, size: labelSize, color: Palette.Operator.muted)
                let valueX = x + labelWidth + size / 2
                surface.drawText(clipped(value, width: x + width - valueX, size: size, bold: false), at: Point(x: valueX, y: row),
                                fonts: fonts, size: size, color: color)
            }
            return
        }
        for (index, (label, _, color)) in facts.enumerated() {
            let column = index / max(1, perColumn)
            guard column < columns else { break }
            if index % perColumn == 0 { y = area.y }
            let x = area.x + column * (width + gutter)
            surface.drawText(label, at: Point(x: x, y: y), fonts: fonts, size: labelSize, color: Palette.Operator.muted)
            y += labelHeight
            values[index].draw(on: surface, at: Point(x: x, y: y), fonts: fonts, color: color)
            y += values[index].height + size / 2
        }
    }

    private func clipped(_ text: String, width: Int, size: Int, bold: Bool) -> String {
        TextBlock(text, width: width, size: size, bold: bold, maxLines: 1, fonts: fonts).lines.first ?? ""
    }

    /// `2026-11-30 09:15 (UTC+08:00)`: local time with its zone, as everywhere people read times.
    static func clock(_ date: Date) -> String {
        HumanTime.string(date, zone: .current)
    }

    /// A check mark drawn as two strokes (no font's glyph: WenQuanYi Micro Hei has none, and
    /// "√" is a square-root sign), in a square of `size` at `origin`.
    func drawCheck(at origin: Point, size: Int, color: RGBColor) {
        let stroke = max(2, size / 7)
        let a = (x: origin.x + size * 15 / 100, y: origin.y + size * 55 / 100)
        let b = (x: origin.x + size * 40 / 100, y: origin.y + size * 80 / 100)
        let c = (x: origin.x + size * 88 / 100, y: origin.y + size * 25 / 100)
        for (p, q) in [(a, b), (b, c)] {
            let steps = max(abs(q.x - p.x), abs(q.y - p.y))
            for i in 0...steps {
                let x = p.x + (q.x - p.x) * i / max(1, steps)
                let y = p.y + (q.y - p.y) * i / max(1, steps)
                surface.fillRoundedRect(Rect(x: x - stroke / 2, y: y - stroke / 2, width: stroke, height: stroke),
                                       radius: stroke / 2, color)
            }
        }
    }

    /// A card's standing, drawn on one line of `width` at the card's size: a drawn check mark
    /// and "eligible", or "×" and why not with when it will be, in its compact form where the
    /// long one is too wide, then cut with "…" (every card's line at one size).
    func drawStatus(of tile: OperatorTile, now: Date, at origin: Point, width: Int, size: Int) {
        let color = tile.ineligibility == nil ? Palette.Operator.good : Palette.Operator.warn
        if tile.ineligibility == nil {
            drawCheck(at: Point(x: origin.x, y: origin.y + size / 6), size: size, color: color)
            surface.drawText("eligible", at: Point(x: origin.x + size * 13 / 10, y: origin.y), fonts: fonts, size: size, color: color)
            return
        }
        var text = Self.status(of: tile, now: now)
        if fonts.width(of: text, size: size) > width { text = Self.status(of: tile, now: now, compact: true) }
        surface.drawText(clipped(text, width: width, size: size, bold: false), at: origin, fonts: fonts, size: size, color: color)
    }
}
