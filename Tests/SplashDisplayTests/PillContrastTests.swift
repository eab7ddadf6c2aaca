import Foundation
import SplashCore
import SplashTestSupport
import Testing

/// The 跳过 pill stands off whatever is behind it: its label at least 4.5:1 against the
/// pill, its edge (the hairline or the translucent fill inside it) at least 3:1 against the pixels around it (WCAG's figures for text and
/// for the parts of a control), on a black, a white and a mid-grey letterbox and on a
/// busy picture, measured in the frames the kiosk draws.
@Suite struct PillContrastTests {
    /// WCAG 2's relative luminance of an sRGB colour.
    static func luminance(_ c: RGBColor) -> Double {
        func channel(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue)
    }

    static func contrast(_ a: RGBColor, _ b: RGBColor) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    enum Backdrop: String, CaseIterable {
        case black, white, grey, busy
    }

    @Test(arguments: Backdrop.allCases)
    func thePillReadsOn(_ backdrop: Backdrop) throws {
        let folder = try temporaryFolder()
        let screen = Size(width: 1280, height: 720)
        var extra: [String] = []
        switch backdrop {
        case .busy:
            // Noise under the pill: every colour next to every other.
            try writeNoisePNG(folder + "/p.png", width: 1280, height: 720, seed: 7)
            extra = ["--fit", "fill"]
        case .black, .white, .grey:
            // A portrait poster: the pill sits on the letterbox.
            try writeImage(folder + "/p.png", width: 360, height: 720, bands: [red])
            extra = ["--background", ["black": "#000000", "white": "#FFFFFF", "grey": "#808080"][backdrop.rawValue]!]
        }
        let feed = try writeFeed(folder, #"[{"id": "p", "picUrl": "p.png", "showTime": 5}]"#)
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame", "--feed", feed,
                                "--size", "\(screen)", "--snapshot", folder + "/shots", "--data-dir", folder + "/data",
                                "--cache-dir", folder + "/cache", "--metrics-file", "off"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        let frame = try Snapshot(folder + "/shots/0001-splash.png")
        let button = SkipButton(screen: screen)
        let pill = button.frame

        // The label against the pill's fill: its brightest pixel against the lightest the fill
        // is beside it (the fill lets the picture through, darkened).
        let fill = pill.insetBy(button.edgeWidth + 2)
        var brightest = RGBColor.black
        var labelLeft = fill.maxX, labelRight = fill.x
        for y in fill.y..<fill.maxY {
            for x in fill.x + fill.height / 2..<fill.maxX - fill.height / 2 {
                let c = frame.color(x, y)
                if Self.luminance(c) > Self.luminance(brightest) { brightest = c }
                if Self.luminance(c) > 0.5 { labelLeft = min(labelLeft, x); labelRight = max(labelRight, x) }
            }
        }
        try #require(labelLeft < labelRight, "\(backdrop): no label")
        var lightestFill = RGBColor.black
        for y in fill.y..<fill.maxY {
            for x in (fill.x + fill.height / 2..<labelLeft - 3).reversed() + Array(labelRight + 4..<fill.maxX - fill.height / 2) {
                let c = frame.color(x, y)
                if Self.luminance(c) > Self.luminance(lightestFill) { lightestFill = c }
            }
        }
        #expect(Self.contrast(brightest, lightestFill) >= 4.5, "\(backdrop): label \(brightest) on \(lightestFill)")

        // The edge against what is around it, all along the pill's straight top and bottom.
        var worst = Double.infinity
        for x in pill.x + pill.height / 2 + 2..<pill.maxX - pill.height / 2 - 2 {
            for (outside, edge) in [(pill.y - 2, pill.y), (pill.maxY + 1, pill.maxY - 1)] {
                let around = frame.color(x, outside)
                let inward = edge < pill.center.y ? 1 : -1
                let outline = frame.color(x, edge)
                let ring = frame.color(x, edge + inward * (button.edgeWidth + 1))
                worst = min(worst, max(Self.contrast(outline, around), Self.contrast(ring, around)))
            }
        }
        #expect(worst >= 3, "\(backdrop): the edge's contrast falls to \(worst)")
    }
}
