import Foundation
import SplashCore
@testable import SplashDisplay
import SplashTestSupport
import Testing

/// The poetry panel as a person sees it: fetched from a local server, drawn headless,
/// checked pixel by pixel.
@Suite struct PoetryPanelTests {
    let yellow = RGBColor.widgetYellow
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
        let card = DetailLayout(screen: Size(width: 1280, height: 720)).card
        let pad = PoetryCard.padding(of: card)
        let square = PoetryCard.pictureSquare(in: card)
        #expect(picture.color(card.x + pad / 2, card.center.y).isClose(to: yellow), "card edge")
        #expect(picture.color(card.maxX - 4, card.center.y).isClose(to: yellow))
        #expect(picture.color(square.center.x, square.center.y).isClose(to: blue, tolerance: 20), "picture")
        // The origin and the lines: dark ink in the text column.
        let text = Rect(x: square.maxX + pad, y: card.y + pad, width: card.maxX - pad - square.maxX - pad,
                        height: card.height - 2 * pad)
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
            let card = DetailLayout(screen: screen).card
            let pad = PoetryCard.padding(of: card)
            let square = PoetryCard.pictureSquare(in: card)
            // The card is on the snapshot where the layout puts it, and it is yellow.
            let onScreen = onOutput(card)
            #expect(onScreen.maxX <= picture.width && onScreen.maxY <= picture.height, "\(size) \(rotate): \(onScreen)")
            let area = onScreen.width * onScreen.height
            #expect(area - picture.count(in: onScreen, differingFrom: yellow, by: 30) > area / 3, "\(size) \(rotate)")
            // The bottom padding of the card stays yellow: no line spills over it.
            let bottom = Rect(x: square.maxX + pad, y: card.maxY - pad + 2, width: card.maxX - 2 * pad - square.maxX,
                              height: pad - 6)
            #expect(picture.count(in: onOutput(bottom), differingFrom: yellow, by: 30) == 0, "\(size) \(rotate)")
            // Nothing is drawn above or to the right of the card.
            let above = Rect(x: card.x, y: max(0, card.y - 10), width: card.width, height: 8)
            #expect(picture.count(in: onOutput(above), differingFrom: page, by: 20) == 0, "\(size) \(rotate)")
            // (Past the card's soft shadow, which reaches 2 px per 90 of its height beyond it.)
            let right = Rect(x: min(screen.width - 3, card.maxX + 2 * max(1, card.height / 90) + 3), y: card.y, width: 2,
                             height: card.height)
            #expect(picture.count(in: onOutput(right), differingFrom: page, by: 20) == 0, "\(size) \(rotate)")
        }
    }

    @Test func portraitAndRotatedLayoutsPutTheCardBelow() throws {
        let s = try Setup()
        let portrait = s.folder + "/portrait"
        _ = try s.run(poem: "/status/404", image: nil, extra: ["--snapshot", portrait, "--size", "1080x1920"])
        let p = try Snapshot(try #require(snapshots(portrait).last))
        #expect(p.width == 1080 && p.height == 1920)
        let card = DetailLayout(screen: Size(width: 1080, height: 1920)).card
        #expect(card.y > 1920 / 2)
        #expect(p.color(card.x + 6, card.center.y).isClose(to: yellow))

        // Turned 90° clockwise on a 1280x720 output: the layout is 720x1280, its bottom on the left.
        let rotated = s.folder + "/rotated"
        _ = try s.run(poem: "/status/404", image: nil, extra: ["--snapshot", rotated, "--rotate", "90"])
        let r = try Snapshot(try #require(snapshots(rotated).last))
        #expect(r.width == 1280 && r.height == 720)
        let layoutCard = DetailLayout(screen: Size(width: 720, height: 1280)).card
        let lx = layoutCard.x + 6
        let ly = layoutCard.center.y
        #expect(r.color(1279 - ly, lx).isClose(to: yellow), "rotated card at \(1279 - ly),\(lx)")
    }
}
