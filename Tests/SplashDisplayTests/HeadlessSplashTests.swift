import Foundation
import SplashTestSupport
import SplashCore
import Testing

/// The kiosk run headless, as CI runs it: real SDL frames, checked pixel by pixel.
@Suite struct HeadlessSplashTests {
    let screen = Size(width: 1280, height: 720)

    /// A feed with one campaign whose picture is `image`.
    func oneCampaign(_ folder: String, image: String = "a.png", title: String = "标题") throws -> String {
        try writeFeed(folder, """
        {"campaigns": [{"id": "a", "picUrl": "\(image)", "showTime": 100, "title": "\(title)", "detail": "说明文字"}]}
        """)
    }

    /// A campaign whose picture is a WebP: synced, validated and cached by the network
    /// process, shown on the splash in its colours, its thumbnail stored.
    @Test func aWebPCampaignIsShown() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.webp", width: 1280, height: 720, bands: [red, blue])
        let feed = try oneCampaign(dir, image: "a.webp")
        let args = ["--feed", feed, "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"]
        let sync = try runKiosk(["sync"] + args)
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        let shots = dir + "/shots"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--snapshot", shots] + args)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events(named: "splash").first?["campaign"] as? String == "a", "\(run.stdout)")
        let splash = try Snapshot(try #require(snapshots(shots).first))
        #expect(splash.color(300, 400).isClose(to: red, tolerance: 24), "\(splash.color(300, 400))")
        #expect(splash.color(980, 400).isClose(to: blue, tolerance: 24), "\(splash.color(980, 400))")
        let listed = try runKiosk(["campaigns", "--json"] + args)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["cached"] as? Bool == true && rows.first?["thumbnail"] as? Bool == true, "\(listed.stdout)")
    }

    /// The first splash's picture is kept for the next start (`first-picture` in the data
    /// folder, naming the cached file), whose first frame, composed from it ahead, is the
    /// same pixel for pixel; a picture no longer first is forgotten.
    @Test func theNextStartComposesTheFirstSplashAhead() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.jpg", width: 1280, height: 720, bands: [red, blue, green])
        let feed = try oneCampaign(dir, image: "a.jpg")
        let args = ["--feed", feed, "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"]
        #expect(try runKiosk(["sync"] + args).status == 0)
        var shots: [Snapshot] = []
        var firstsMemo = ""
        for n in 0..<2 {
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame",
                                    "--snapshot", dir + "/shots\(n)"] + args)
            #expect(run.status == 0, "\(run.stderr)")
            let memo = try String(contentsOfFile: dir + "/data/first-picture", encoding: .utf8)
            #expect(memo.hasPrefix(dir + "/cache/"), "\(memo)")
            shots.append(try Snapshot(try #require(snapshots(dir + "/shots\(n)").first)))
        }
        #expect(shots[0].differences(from: shots[1], in: Rect(x: 0, y: 0, width: 1280, height: 720)) == 0)
        #expect(shots[1].color(200, 360).isClose(to: red, tolerance: 24))
        // Rotating between two campaigns, the next start is expected to show the other one.
        try writeImage(dir + "/b.jpg", width: 1280, height: 720, bands: [blue])
        _ = try writeFeed(dir, """
        {"campaigns": [{"id": "a", "picUrl": "a.jpg", "showTime": 100}, {"id": "b", "picUrl": "b.jpg", "showTime": 100}]}
        """)
        #expect(try runKiosk(["sync"] + args).status == 0)
        var firsts: [String] = []
        for _ in 0..<2 {
            let run = try runKiosk(["--headless", "--clock", "virtual", "--pick", "rotate", "--exit-after", "first-frame"] + args)
            let shown = try #require(run.events(named: "splash").first?["image"] as? String)
            let memo = try String(contentsOfFile: dir + "/data/first-picture", encoding: .utf8)
            #expect(memo != shown && memo.hasPrefix(dir + "/cache/"), "\(memo) after \(shown)")
            firsts.append(shown)
            #expect(firsts.count < 2 || firsts[1] == firstsMemo, "the second start showed \(shown)")
            firstsMemo = memo
        }
        // With nothing left to show, the bundled picture is first: it is kept instead.
        _ = try writeFeed(dir, #"{"campaigns": []}"#)
        #expect(try runKiosk(["sync"] + args).status == 0)
        #expect(try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame"] + args).status == 0)
        let memo = try String(contentsOfFile: dir + "/data/first-picture", encoding: .utf8)
        #expect(memo.hasSuffix("/default-splash.jpg"), "\(memo)")
    }

    @Test func splashCountsDownInThePillAndHandsOverToDetail() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.png", width: 1280, height: 720, bands: [red])
        let feed = try oneCampaign(dir)
        let shots = dir + "/shots"
        // Thirty seconds into a poem's five minutes: the next poem is not due during the run.
        let run = try runKiosk(["--headless", "--clock", "virtual", "--now", "2030-06-01T12:00:30Z",
                                "--exit-after", "detail", "--feed", feed, "--snapshot", shots])
        #expect(run.status == 0, "\(run.stderr)")
        // Sync events come from the background and may land anywhere after the start.
        #expect(run.names.filter { $0 != "sync" && $0 != "poetry" }
                == ["started", "screen", "splash", "countdown", "frame", "first_frame", "countdown", "frame", "countdown", "frame",
                    "skip", "detail", "frame"])
        // One frame per distinct screen, each after the event that changed it.
        #expect(run.events(named: "frame").compactMap { $0["scene"] as? String } == ["splash", "splash", "splash", "detail"])
        // The panel starts on the placeholder and turns to a bundled poem.
        #expect(run.events(named: "poetry").compactMap { $0["source"] as? String } == ["placeholder", "bundled"])
        #expect(run.names.first == "started")
        #expect(run.events(named: "countdown").compactMap { $0["value"] as? Int } == [3, 2, 1])
        #expect(run.events(named: "skip").first?["by"] as? String == "timeout")
        #expect(run.events(named: "splash").first?["campaign"] as? String == "a")
        #expect(run.events(named: "started").first?["driver"] as? String == "dummy")
        #expect(run.events(named: "started").first?["renderer"] as? String == "software")

        let files = snapshots(shots)
        #expect(files.map { URL(fileURLWithPath: $0).lastPathComponent }
                == ["0001-splash.png", "0002-splash.png", "0003-splash.png", "0004-detail.png"])
        let three = try Snapshot(files[0])
        let two = try Snapshot(files[1])
        #expect(three.width == 1280 && three.height == 720)

        // The pill is a solid near-black fill inside a light hairline, in the top-right corner
        // on the screens' margin, on top of the image.
        let pill = SkipButton(screen: screen).frame
        #expect(pill.maxX == 1280 - 60 && pill.y == 60)
        let inside = three.color(pill.x + pill.height / 2, pill.y + 6)
        let darkened = RGBColor(red: 0x26, green: 0x26, blue: 0x26)
        #expect(inside.isClose(to: darkened, tolerance: 2), "pill colour \(inside)")
        #expect(three.color(pill.x + pill.height / 2, pill.y).isClose(to: RGBColor(red: 0xF2, green: 0xF2, blue: 0xF2)), "the pill's hairline")
        #expect(three.color(10, 10).isClose(to: red))
        #expect(three.color(pill.x - 20, pill.center.y).isClose(to: red))
        // White label pixels inside the pill.
        #expect(three.count(in: pill.insetBy(6), differingFrom: darkened, by: 120) > 20)

        // Only the digit changes between ticks.
        #expect(three.differences(from: two, in: pill) > 10)
        #expect(three.differences(from: two, in: Rect(x: 0, y: pill.maxY + 2, width: 1280, height: 600)) == 0)
        #expect(three.differences(from: two, in: Rect(x: 0, y: 0, width: pill.x - 2, height: 100)) == 0)
    }

    @Test func aTranslucentPictureIsBlendedOverTheBackground() throws {
        let dir = try temporaryFolder()
        // Half the screen's size, so it is scaled as well as blended; white at half opacity.
        try writeTranslucentPNG(dir + "/a.png", width: 640, height: 360, color: RGBColor(red: 255, green: 255, blue: 255),
                                alpha: 128)
        let feed = try oneCampaign(dir)
        let shots = dir + "/shots"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame", "--feed", feed,
                                "--background", "#000000", "--snapshot", shots])
        #expect(run.status == 0, "\(run.stderr)")
        let p = try Snapshot(snapshots(shots)[0])
        #expect(p.color(100, 400).isClose(to: RGBColor(red: 128, green: 128, blue: 128), tolerance: 16), "\(p.color(100, 400))")
    }

    @Test func fitLetterboxesOnTheBackgroundAndFillCovers() throws {
        let dir = try temporaryFolder()
        // 2.35:1, left half green, right half blue, on a 16:9 screen.
        try writeImage(dir + "/a.png", width: 470, height: 200, bands: [green, blue])
        let feed = try oneCampaign(dir)
        for mode in ["fit", "fill"] {
            let shots = dir + "/" + mode
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame", "--feed", feed,
                                    "--fit", mode, "--background", "#FF00FF", "--snapshot", shots])
            #expect(run.status == 0, "\(run.stderr)")
            let p = try Snapshot(snapshots(shots)[0])
            if mode == "fit" {
                // 1280x545: the bars (175 px together) hold the pill's corner above it, so the
                // picture stands at the foot rather than leave a sliver of 3 px there.
                #expect(p.color(640, 10).isClose(to: magenta) && p.color(640, 170).isClose(to: magenta))
                #expect(p.color(300, 180).isClose(to: green) && p.color(980, 180).isClose(to: blue))
                #expect(p.color(300, 718).isClose(to: green))
                #expect(p.color(10, 360).isClose(to: green))
                #expect(p.color(1270, 360).isClose(to: blue))
            } else {
                // Covers the screen: no background anywhere, the sides cropped.
                // The green/blue edge (x = 200 of 400) stays in the middle of the screen.
                #expect(p.color(600, 2).isClose(to: green))
                #expect(p.color(680, 2).isClose(to: blue))
                #expect(p.color(10, 717).isClose(to: green))
                #expect(p.color(1270, 717).isClose(to: blue))
                #expect(p.count(in: Rect(x: 0, y: 100, width: 1280, height: 620), differingFrom: magenta, by: 60) == 1280 * 620)
            }
        }
    }

    @Test func nothingEligibleShowsTheBundledDefaultImage() throws {
        let dir = try temporaryFolder()
        let feed = try writeFeed(dir, #"{"campaigns": []}"#)
        let shots = dir + "/shots"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame", "--feed", feed,
                                "--snapshot", shots])
        #expect(run.status == 0, "\(run.stderr)")
        let splash = try #require(run.events(named: "splash").first)
        #expect(splash["campaign"] is NSNull)
        let image = try #require(splash["image"] as? String)
        #expect(image.hasSuffix("default-splash.jpg"))
        // The default picture (1920x1080) scaled to 1280x720: compare samples away from its text.
        let shot = try Snapshot(snapshots(shots)[0])
        let original = try Snapshot(image)
        for (x, y) in [(40, 40), (300, 650), (900, 600), (1200, 700), (640, 20)] {
            #expect(shot.color(x, y).isClose(to: original.color(x * 3 / 2, y * 3 / 2), tolerance: 16),
                    "at \(x),\(y): \(shot.color(x, y)) vs \(original.color(x * 3 / 2, y * 3 / 2))")
        }
    }

    @Test func fallbackSkipGoesStraightToDetail() throws {
        let dir = try temporaryFolder()
        let feed = try writeFeed(dir, "[]")
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "detail", "--feed", feed,
                                "--fallback", "skip"])
        #expect(run.status == 0)
        #expect(!run.names.contains("splash"))
        #expect(run.names.contains("detail"))
    }

    @Test func anUndecodableCampaignImageIsNeverShown() throws {
        let dir = try temporaryFolder()
        try "<html>not a picture</html>".write(toFile: dir + "/a.jpg", atomically: true, encoding: .utf8)
        let feed = try oneCampaign(dir, image: "a.jpg")
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--feed", feed])
        #expect(run.status == 0)
        // Refused when it is cached, so never shown: the default picture comes instead.
        #expect(run.events(named: "splash").count == 1)
        #expect(run.events(named: "splash").first?["campaign"] is NSNull)
        let message = run.events(named: "error").first?["message"] as? String
        #expect(message?.contains("HTML") == true, "\(message ?? "no error event")")
    }
}

/// Scripted input: taps, clicks and keys map to the same actions.
@Suite struct ScriptedInputTests {
    func run(script: String, extra: [String] = []) throws -> KioskRun {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.png", width: 640, height: 360, bands: [red])
        let feed = try writeFeed(dir, #"[{"id": "a", "picUrl": "a.png", "showTime": 50}]"#)
        try script.write(toFile: dir + "/script", atomically: true, encoding: .utf8)
        return try runKiosk(["--headless", "--clock", "virtual", "--feed", feed, "--script", dir + "/script",
                             "--exit-after", "splash"] + extra)
    }

    @Test func tapOnThePill() throws {
        let r = try run(script: "0.5 tap skip\n")
        #expect(r.events(named: "skip").first?["by"] as? String == "tap")
        #expect((r.events(named: "skip").first?["t"] as? Double) == 0.5)
    }

    @Test func tapNearThePillCountsForFingers() throws {
        let pill = SkipButton(screen: Size(width: 1280, height: 720)).frame
        let r = try run(script: "0.5 tap \(pill.x - 5) \(pill.maxY + 5)\n")
        #expect(r.events(named: "skip").first?["by"] as? String == "tap")
    }

    @Test func tapElsewhereClicksThrough() throws {
        let r = try run(script: "1.2 tap 300 500\n")
        #expect(r.events(named: "skip").first?["by"] as? String == "click_through")
    }

    @Test(arguments: ["escape", "space", "enter"])
    func skipKeys(key: String) throws {
        let r = try run(script: "0.1 key \(key)\n")
        #expect(r.events(named: "skip").first?["by"] as? String == "key")
    }

    @Test func otherKeysAreIgnored() throws {
        let r = try run(script: "0.1 key a\n")
        #expect(r.events(named: "skip").first?["by"] as? String == "timeout")
    }

    @Test func countdownOptionSetsTheNumbers() throws {
        let r = try run(script: "", extra: ["--countdown", "5"])
        #expect(r.events(named: "countdown").compactMap { $0["value"] as? Int } == [5, 4, 3, 2, 1])
        #expect((r.events(named: "skip").first?["t"] as? Double) == 5)
    }

    @Test func theAttractLoopComesBackAndInputDelaysIt() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.png", width: 64, height: 64, bands: [red])
        let feed = try writeFeed(dir, #"[{"id": "a", "picUrl": "a.png", "showTime": 50}]"#)
        try "0.5 key escape\n4 tap 100 100\n".write(toFile: dir + "/script", atomically: true, encoding: .utf8)
        let r = try runKiosk(["--headless", "--clock", "virtual", "--feed", feed, "--attract-after", "5",
                              "--script", dir + "/script", "--exit-after", "12"])
        #expect(r.status == 0)
        // Detail at 0.5; the tap at 4 moves the return to 9; that splash times out at 12.
        let splashTimes = r.events(named: "splash").compactMap { $0["t"] as? Double }
        #expect(splashTimes == [0, 9])
        #expect(r.events(named: "splash").compactMap { $0["remaining"] as? Int } == [49, 48])
        #expect(r.events(named: "skip").compactMap { $0["by"] as? String } == ["key", "timeout"])
    }

    /// A campaign's focal point travels from the feed through the database to the screen: a
    /// wide picture cropped to cover keeps its left band in view, not its middle.
    @Test func aFocalPointKeepsItsPartOfACroppedPictureInView() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/wide.png", width: 2400, height: 600, bands: [blue, red, red, red])
        for (name, focus) in [("centre", ""), ("left", #", "focus": {"x": 0.1, "y": 0.5}"#)] {
            let feed = try writeFeed(folder, #"[{"id": "w", "picUrl": "wide.png", "showTime": 5\#(focus)}]"#)
            let shots = folder + "/shots-" + name
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame", "--feed", feed, "--fit", "fill",
                                    "--size", "1280x720", "--snapshot", shots, "--data-dir", folder + "/data-" + name,
                                    "--cache-dir", folder + "/cache", "--metrics-file", "off"])
            #expect(run.status == 0, "\(run.stderr)")
            let frame = try Snapshot(shots + "/0001-splash.png")
            let left = frame.color(200, 400)
            #expect(left.isClose(to: name == "left" ? blue : red), "\(name): \(left) at the left")
        }
    }

    /// One pill in one place: the same frame and the same solid fill over a poster that
    /// covers the screen, a picture letterboxed with room for it (moved left, the pill in its
    /// bar) and one whose bars are too narrow for it (centred, the pill on it).
    @Test func thePillIsOnePillInOnePlace() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/poster.png", width: 600, height: 900, bands: [red])
        try writeImage(folder + "/four.png", width: 960, height: 720, bands: [red])
        try writeImage(folder + "/three.png", width: 1080, height: 720, bands: [red])
        let edge = RGBColor(red: 0xF2, green: 0xF2, blue: 0xF2)
        let fill = RGBColor(red: 0x26, green: 0x26, blue: 0x26)
        func splash(_ picture: String, on screen: Size) throws -> (Snapshot, Rect) {
            let feed = try writeFeed(folder, #"[{"id": "p", "picUrl": "\#(picture)", "showTime": 5}]"#)
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame", "--feed", feed,
                                    "--size", "\(screen)", "--snapshot", folder + "/shots-" + picture,
                                    "--data-dir", folder + "/data-" + picture, "--cache-dir", folder + "/cache-" + picture,
                                    "--metrics-file", "off"])
            #expect(run.status == 0, "\(run.stderr)")
            let frame = try Snapshot(folder + "/shots-" + picture + "/0001-splash.png")
            let pill = SkipButton(screen: screen).frame
            // The same look everywhere: the hairline along its top, the solid fill inside.
            #expect(frame.color(pill.center.x, pill.y).isClose(to: edge), "\(picture): \(pill)")
            #expect(frame.color(pill.x + pill.height / 4, pill.center.y) == fill, "\(picture): \(frame.color(pill.x + pill.height / 4, pill.center.y))")
            return (frame, pill)
        }
        // A 2:3 poster on 480x800 covers the screen (a 10 % crop): no bars of 40 px.
        let (poster, _) = try splash("poster.png", on: Size(width: 480, height: 800))
        #expect(poster.color(10, 20).isClose(to: red) && poster.color(10, 790).isClose(to: red), "no bars")
        // 4:3 on 1280x720: moved to the left edge (a bar of 57 px there would look like a
        // fault), the pill in the one bar on the right, clear of the picture.
        let (four, pill) = try splash("four.png", on: Size(width: 1280, height: 720))
        #expect(four.color(2, 360).isClose(to: red) && four.color(955, 360).isClose(to: red))
        let bar = Rect(x: 965, y: 0, width: pill.x - 965, height: 720)
        #expect(bar.width >= 100 && four.count(in: bar, differingFrom: .black, by: 10) == 0, "\(bar)")
        // 3:2 on 1280x720: bars of 100 px, too narrow together: centred, the pill on the picture.
        let (three, _) = try splash("three.png", on: Size(width: 1280, height: 720))
        #expect(three.color(50, 360).isClose(to: .black) && three.color(1230, 360).isClose(to: .black))
        #expect(three.color(pill.center.x, pill.y - 4).isClose(to: red))
    }

    /// A campaign's picture for portrait screens: fetched with the feed, shown on a portrait
    /// screen (splash and detail) and not on a landscape one; refused (an HTML page), it is
    /// said so and the campaign's picture is shown there instead.
    @Test func aPortraitScreenShowsThePictureForPortraitScreens() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/wide.png", width: 1600, height: 900, bands: [red])
        try writeImage(folder + "/tall.png", width: 900, height: 1600, bands: [blue])
        try "<html><body>not a picture</body></html>".write(toFile: folder + "/page.png", atomically: true, encoding: .utf8)
        for (name, portrait) in [("good", "tall.png"), ("refused", "page.png")] {
            let feed = try writeFeed(folder, #"[{"id": "p", "picUrl": "wide.png", "picUrlPortrait": "\#(portrait)", "showTime": 9}]"#)
            let data = folder + "/data-" + name, cache = folder + "/cache-" + name
            let sync = try runKiosk(["sync", "--feed", feed, "--data-dir", data, "--cache-dir", cache])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect((sync.stdout + sync.stderr).contains("picture for portrait screens") == (name == "refused"), "\(name): \(sync.stdout) \(sync.stderr)")
            for (size, portraitScreen) in [("1080x1920", true), ("1920x1080", false)] {
                let shots = folder + "/shots-\(name)-\(size)"
                let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "detail", "--countdown", "1",
                                        "--feed", feed, "--size", size, "--snapshot", shots, "--data-dir", data, "--cache-dir", cache,
                                        "--metrics-file", "off", "--fit", "fill"])
                #expect(run.status == 0, "\(run.stderr)")
                let files = snapshots(shots)
                let splash = try Snapshot(try #require(files.first { $0.hasSuffix("-splash.png") }))
                let shown = splash.color(splash.width / 2, splash.height / 2)
                let wanted = portraitScreen && name == "good" ? blue : red
                #expect(shown.isClose(to: wanted), "\(name) \(size): \(shown) on the splash")
                let detail = try Snapshot(try #require(files.last { $0.hasSuffix("-detail.png") }))
                #expect(detail.count(in: Rect(x: 0, y: 0, width: detail.width, height: detail.height), differingFrom: wanted, by: 30)
                        < detail.width * detail.height - 20_000, "\(name) \(size): the detail screen's picture")
            }
        }
    }
}
