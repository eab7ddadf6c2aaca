import Foundation
import SplashCore
@testable import SplashDisplay
import SplashTestSupport
import Testing

/// The poetry panel as a person sees it: fetched from a local server, drawn headless,
/// checked pixel by pixel.
@Suite struct PoetryPanelTests {
    let yellow = Palette.card
    let page = RGBColor(red: 0xF5, green: 0xF2, blue: 0xEA)

    final class Setup {
        let folder: String
        let www: String
        let server: TestServer
        init() throws {
            folder = try temporaryFolder()
            www = folder + "/www"
            try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
            server = try TestServer(root: www)
            _ = try writeFeed(folder, "[]")
        }
        func publish(_ name: String, _ text: String) throws {
            try text.write(toFile: www + "/" + name, atomically: true, encoding: .utf8)
        }
        func run(poem: String, image: String? = "/files/pic.png", extra: [String] = []) throws -> KioskRun {
            // Thirty seconds into a bundled poem's five minutes: no next one comes due in the run.
            var args = ["--headless", "--clock", "virtual", "--now", "2030-06-01T12:00:30Z",
                        "--exit-after", "detail", "--fallback", "skip",
                        "--feed", folder + "/feed.json", "--data-dir", folder + "/data", "--cache-dir", folder + "/cache",
                        "--poetry-url", server.url(poem).absoluteString]
            if let image { args += ["--poetry-image-url", server.url(image).absoluteString] }
            return try runKiosk(args + extra)
        }
    }

    /// The card on a snapshot: the bounding box of its tint.
    func cardRect(_ shot: Snapshot) throws -> Rect {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in stride(from: 0, to: shot.height, by: 1) {
            for x in 0..<shot.width where shot.color(x, y).isClose(to: yellow, tolerance: 6) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        try #require(maxX > minX && maxY > minY, "no card on the snapshot")
        return Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The bounding box of the pixels close to `color` inside `region`.
    func box(of color: RGBColor, in region: Rect, _ shot: Snapshot) -> Rect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in region.y..<region.maxY {
            for x in region.x..<region.maxX where shot.color(x, y).isClose(to: color, tolerance: 20) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    @Test func aFetchedPoemAndPictureAreDrawnOnTheYellowCardAndKeptForNextTime() throws {
        let s = try Setup()
        try s.publish("poem.json", #"{"content":"空门寂寞汝思家，礼别云房下九华。","origin":"送童子下山","author":"金地藏","category":"古诗文-抒情-思念"}"#)
        try writeImage(s.www + "/pic.png", width: 300, height: 300, bands: [blue])
        let shots = s.folder + "/shots"
        let run = try s.run(poem: "/files/poem.json", extra: ["--snapshot", shots])
        #expect(run.status == 0, "\(run.stderr)")
        let poetry = run.events(named: "poetry")
        #expect(poetry.last?["source"] as? String == "timeline")
        #expect(poetry.last?["origin"] as? String == "送童子下山")

        let picture = try Snapshot(try #require(snapshots(shots).last))
        let card = try cardRect(picture)
        #expect(picture.color(card.x + 3, card.center.y).isClose(to: yellow), "card edge")
        #expect(picture.color(card.maxX - 4, card.center.y).isClose(to: yellow))
        // The picture: a square at the card's left, its corners rounded (the tint shows there).
        let square = try #require(box(of: blue, in: card, picture), "picture")
        #expect(abs(square.width - square.height) <= 2 && square.x - card.x < card.width / 8, "\(square) in \(card)")
        #expect(picture.color(square.x, square.y).isClose(to: yellow, tolerance: 30), "a rounded corner")
        // The origin and the lines: dark ink in the text column.
        let text = Rect(x: square.maxX + 4, y: card.y + 4, width: card.maxX - square.maxX - 8, height: card.height - 8)
        #expect(picture.count(in: text, differingFrom: yellow, by: 90) > 500)
        // Next start with the poem server failing: the kept entry and its picture.
        let again = try s.run(poem: "/status/500", extra: ["--snapshot", shots + "2"])
        #expect(again.status == 0)
        #expect(again.events(named: "poetry").first?["source"] as? String == "cache")
        #expect(again.events(named: "poetry").first?["origin"] as? String == "送童子下山")
        #expect(!again.events(named: "poetry").contains { $0["source"] as? String == "placeholder" })
        #expect(again.events(named: "warning").contains { ($0["message"] as? String ?? "").contains("500") })
        let kept = try Snapshot(try #require(snapshots(shots + "2").last))
        #expect(kept.color(square.center.x, square.center.y).isClose(to: blue, tolerance: 20))
    }

    @Test func anUnreachablePoemServerFallsBackToABundledPoem() throws {
        let s = try Setup()
        let run = try s.run(poem: "/status/503", image: nil)
        #expect(run.status == 0)
        #expect(run.events(named: "poetry").compactMap { $0["source"] as? String } == ["placeholder", "bundled"])
    }

    @Test func aPoemTooLongForTheCardStaysInsideIt() throws {
        let s = try Setup()
        let long = String(repeating: "白日依山尽黄河入海流欲穷千里目更上一层楼，", count: 60)
        try s.publish("long.json", #"{"content":"\#(long)","origin":"\#(String(repeating: "很长的题目", count: 10))","author":"无名"}"#)
        for (size, rotate) in [("1280x720", "0"), ("1080x1920", "0"), ("1920x1080", "90")] {
            let shots = s.folder + "/long-\(size)-\(rotate)"
            let run = try s.run(poem: "/files/long.json", image: nil, extra: ["--snapshot", shots, "--size", size, "--rotate", rotate])
            #expect(run.status == 0, "\(run.stderr)")
            let parts = size.split(separator: "x").compactMap { Int($0) }
            let output = Size(width: parts[0], height: parts[1])
            let rotation = Rotation(rawValue: Int(rotate)!)!
            let screen = rotation.logicalSize(for: output)
            // A rectangle of the layout where it lands on the snapshot (the output).
            func onOutput(_ r: Rect) -> Rect {
                rotation == .quarter ? Rect(x: output.width - r.y - r.height, y: r.x, width: r.height, height: r.width) : r
            }
            let picture = try Snapshot(try #require(snapshots(shots).last))
            // The card (on the output, turned as the screen is) is tinted, and a strip along each
            // of its edges, its padding less a few pixels, stays so: no line spills over it.
            let card = try cardRect(picture)
            #expect(card.maxX <= picture.width && card.maxY <= picture.height, "\(size) \(rotate): \(card)")
            #expect(card.width * card.height * 2 > screen.width * screen.height / 12, "\(size) \(rotate): \(card)")
            let strip = max(8, DetailLayout(screen: screen).unit * 3 / 5) - 4
            let inner = card.insetBy(card.height / 8)
            for edge in [Rect(x: inner.x, y: card.y + 1, width: inner.width, height: strip),
                         Rect(x: inner.x, y: card.maxY - 1 - strip, width: inner.width, height: strip),
                         Rect(x: card.x + 1, y: inner.y, width: strip, height: inner.height),
                         Rect(x: card.maxX - 1 - strip, y: inner.y, width: strip, height: inner.height)] {
                #expect(picture.count(in: edge, differingFrom: yellow, by: 30) == 0, "\(size) \(rotate): \(edge) of \(card)")
            }
            // No shadow: the page right next to the card.
            for edge in [Rect(x: card.x, y: max(0, card.y - 6), width: card.width, height: 4),
                         Rect(x: min(picture.width - 4, card.maxX + 2), y: card.y, width: 2, height: card.height)] {
                #expect(picture.count(in: edge, differingFrom: page, by: 20) == 0, "\(size) \(rotate): beside the card \(edge)")
            }
        }
    }

    @Test func portraitAndRotatedLayoutsPutTheCardBelow() throws {
        let s = try Setup()
        let portrait = s.folder + "/portrait"
        _ = try s.run(poem: "/status/404", image: nil, extra: ["--snapshot", portrait, "--size", "1080x1920"])
        let p = try Snapshot(try #require(snapshots(portrait).last))
        #expect(p.width == 1080 && p.height == 1920)
        let card = try cardRect(p)
        // At the foot, on the grid's left line, as wide as its poem needs (no wider than the grid).
        #expect(card.y > 1920 / 2, "\(card)")
        #expect(card.x == 90 && card.width > 1080 / 4 && card.maxX <= 1080 - 90, "\(card)")

        // Turned 90° clockwise on a 1280x720 output: the layout is 720x1280, its bottom on the left.
        let rotated = s.folder + "/rotated"
        _ = try s.run(poem: "/status/404", image: nil, extra: ["--snapshot", rotated, "--rotate", "90"])
        let r = try Snapshot(try #require(snapshots(rotated).last))
        #expect(r.width == 1280 && r.height == 720)
        let turned = try cardRect(r)
        #expect(turned.maxX < 1280 / 2, "rotated card at \(turned)")
        #expect(turned.height > 720 / 4 && turned.maxY <= 720 - 60, "rotated card at \(turned)")
    }
}
