import Foundation
import SplashCore
import SplashTestSupport
import Testing

/// Animated GIFs made by ffmpeg: checked frame by frame by the media process before they
/// are cached, their first frame the poster (drawn by the display, transparent where the
/// GIF is), played under the pill on the kiosk's countdown by the real binaries, counted
/// once as pictures; those beyond the limits shown still, with a warning that says why.
@Suite(.serialized) struct AnimatedGIFTests {
    func make(_ path: String, _ source: String, filter: [String] = []) throws {
        try Clips.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source] + filter + [path])
    }

    /// Pixels inside `rect` whose colours are far apart in two pictures (scaled by two
    /// different scalers, the same picture is close everywhere).
    func far(_ a: Snapshot, _ b: Snapshot, in rect: Rect) -> Int {
        var n = 0
        for y in stride(from: rect.y, to: rect.maxY, by: 1) {
            for x in rect.x..<rect.maxX where !a.color(x, y).isClose(to: b.color(x, y), tolerance: 60) { n += 1 }
        }
        return n
    }

    func rows(_ args: [String]) throws -> [String: [String: Any]] {
        let listed = try runKiosk(["campaigns", "--json"] + args)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0) })
    }

    @Test func anAnimatedGIFPlaysUnderThePillOnTheKiosksCountdown() throws {
        let dir = try temporaryFolder()
        // The test pattern, 2 s at 10 frames a second; a blue disc that moves, on transparency.
        try make(dir + "/anim.gif", "testsrc2=size=320x240:rate=10:d=2")
        try make(dir + "/disc.gif", "color=c=blue:s=320x240:r=4:d=2,format=rgba,geq=r=0:g=0:b=255:a='if(lt(hypot(X-100-100*T\\,Y-120)\\,60)\\,255\\,0)'",
                 filter: ["-filter_complex", "[0]split[a][b];[a]palettegen=reserve_transparent=1[p];[b][p]paletteuse=alpha_threshold=128"])
        let feed = try writeFeed(dir, """
        {"campaigns": [{"id": "anim", "picUrl": "anim.gif", "showTime": 1, "updatedAt": "2026-02-01T00:00:00Z"},
                       {"id": "disc", "picUrl": "disc.gif", "showTime": 1, "updatedAt": "2026-01-01T00:00:00Z"}]}
        """)
        let args = ["--feed", feed, "--data-dir", dir + "/data", "--cache-dir", dir + "/cache", "--background", "#336699"]
        let sync = try runKiosk(["sync"] + args)
        #expect(sync.status == 0 && !sync.stderr.contains("warning"), "\(sync.stdout)\(sync.stderr)")
        let synced = try rows(args)
        #expect((synced["anim"]?["video"] as? [String: Any])?["facts"] as? String == "animated gif 320x240 10 fps 2.0 s", "\(synced)")
        let table = try runKiosk(["campaigns"] + args).stdout
        #expect(table.contains("animated gif 320x240 10 fps 2.0 s"), "\(table)")
        let screen = Rect(x: 160, y: 0, width: 960, height: 720)
        for (round, id) in ["anim", "disc"].enumerated() {
            let shots = dir + "/shots-\(round)"
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--snapshot", shots] + args)
            #expect(run.status == 0, "\(run.stderr)")
            let splash = try #require(run.events(named: "splash").first)
            // A picture, shown as one: the kiosk's countdown (3), not the GIF's length.
            #expect(splash["campaign"] as? String == id && splash["media"] as? String == "picture", "\(run.stdout)")
            #expect(run.events(named: "countdown").compactMap { $0["value"] as? Int } == [3, 2, 1])
            #expect(run.events(named: "error").isEmpty, "\(run.stdout)")
            #expect(run.events(named: "video").first?["decoder"] as? String == "gif", "\(run.stdout)")
            let ended = try #require(run.events(named: "video_ended").first, "\(run.stdout)")
            #expect(ended["dropped"] as? Int == 0, "\(ended)")
            // The poster, then one snapshot a second: the poster is the first frame, and
            // the GIF moves (and loops: 3 s of a 2 s GIF).
            let files = snapshots(shots).filter { $0.hasSuffix("-splash.png") }
            #expect(files.count == 4, "\(files)")
            // Numbered one after the other, the detail screen next.
            #expect(snapshots(shots).map { URL(fileURLWithPath: $0).lastPathComponent }
                    == ["0001-splash.png", "0002-splash.png", "0003-splash.png", "0004-splash.png", "0005-detail.png"])
            guard files.count == 4 else { continue }
            let poster = try Snapshot(files[0]), first = try Snapshot(files[1]), second = try Snapshot(files[2])
            #expect(far(poster, first, in: screen) < 960 * 720 / 50, "the poster is the first frame")
            #expect(first.differences(from: second, in: screen) > 5_000, "the frames differ a second apart")
            if id == "disc" {
                // Where the GIF is transparent, the background shows: on the poster and the frames.
                for shot in [poster, first, second] {
                    #expect(shot.color(1100, 650).isClose(to: RGBColor(red: 0x33, green: 0x66, blue: 0x99), tolerance: 8),
                            "\(shot.color(1100, 650))")
                }
                #expect(first.color(300, 360).isClose(to: RGBColor(red: 0, green: 0, blue: 255), tolerance: 24), "\(first.color(300, 360))")
            }
        }
        // Each shown once.
        let after = try rows(args)
        #expect(after["anim"]?["remaining"] as? Int == 0 && after["disc"]?["remaining"] as? Int == 0, "\(after)")
        // Filled (cropped to cover the screen), the transparent GIF still shows the background:
        // on its poster as on its frames.
        let filled = try writeFeed(dir, #"{"campaigns": [{"id": "fill", "picUrl": "disc.gif", "showTime": 1}]}"#)
        let fillArgs = ["--feed", filled, "--data-dir", dir + "/fill-data", "--cache-dir", dir + "/fill-cache",
                        "--background", "#336699", "--fit", "fill"]
        _ = try runKiosk(["sync"] + fillArgs)
        _ = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--snapshot", dir + "/fill"] + fillArgs)
        let fill = snapshots(dir + "/fill").filter { $0.hasSuffix("-splash.png") }
        #expect(fill.count == 4, "\(fill)")
        for file in fill {
            let color = try Snapshot(file).color(1200, 650)
            #expect(color.isClose(to: RGBColor(red: 0x33, green: 0x66, blue: 0x99), tolerance: 8), "\(file): \(color)")
        }
    }

    /// A GIF that holds its last frame for 6 s (as many do) plays on: the frames decoded
    /// ahead of it are due that much later, and that is no hang.
    @Test func aGIFThatHoldsItsLastFrameLongPlaysOn() throws {
        let dir = try temporaryFolder()
        try make(dir + "/hold.gif", "testsrc2=size=160x120:rate=10:d=0.3", filter: ["-final_delay", "600"])
        let feed = try writeFeed(dir, #"{"campaigns": [{"id": "hold", "picUrl": "hold.gif", "showTime": 5, "countdown": 8}]}"#)
        let args = ["--feed", feed, "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"]
        _ = try runKiosk(["sync"] + args)
        let facts = (try rows(args)["hold"]?["video"] as? [String: Any])?["facts"] as? String
        #expect(facts?.hasPrefix("animated gif 160x120") == true, "\(String(describing: facts))")
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash"] + args)
        #expect(run.events(named: "error").isEmpty, "\(run.stdout)")
        #expect(run.events(named: "countdown").compactMap { $0["value"] as? Int } == Array((1...8).reversed()))
        // Three frames, then the last held 6 s, then the loop again: more than three shown.
        let ended = try #require(run.events(named: "video_ended").first, "\(run.stdout)")
        #expect((ended["presented"] as? Int ?? 0) > 3, "\(ended)")
    }

    @Test func gifsBeyondTheLimitsAreShownStillAndBrokenOnesRefused() throws {
        let dir = try temporaryFolder()
        // Wider than 3840; 62 frames of 3840x2160 (more than the decode budget); one frame;
        // cut short; an animated WebP.
        try make(dir + "/wide.gif", "testsrc2=size=4000x100:rate=2:d=1")
        try make(dir + "/budget.gif", "testsrc2=size=3840x2160:rate=10:d=6.2", filter: ["-vf", "crop=64:64:0:0,pad=3840:2160:0:0"])
        try make(dir + "/one.gif", "testsrc2=size=320x240:rate=1:d=1")
        try make(dir + "/whole.gif", "testsrc2=size=320x240:rate=10:d=1")
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.gif"))
        try whole.prefix(whole.count - 500).write(to: URL(fileURLWithPath: dir + "/cut.gif"))
        try make(dir + "/anim.webp", "testsrc2=size=320x240:rate=10:d=1", filter: ["-loop", "0"])
        // One frame wider than an animation may be: a still picture, nothing to say.
        try make(dir + "/onewide.gif", "testsrc2=size=4000x100:rate=1:d=1")
        // A first frame that says it is 60000x60000 on a 320x240 canvas: refused before it is decoded.
        var bomb = try Data(contentsOf: URL(fileURLWithPath: dir + "/one.gif"))
        let descriptor = Data([0x2C, 0, 0, 0, 0, 0x40, 0x01, 0xF0, 0x00])
        let at = try #require(bomb.range(of: descriptor))
        bomb.replaceSubrange(at, with: Data([0x2C, 0, 0, 0, 0, 0x60, 0xEA, 0x60, 0xEA]))
        try bomb.write(to: URL(fileURLWithPath: dir + "/bomb.gif"))
        let entries = ["wide", "budget", "one", "cut", "onewide", "bomb"].map {
            #"{"id": "\#($0)", "picUrl": "\#($0).gif", "showTime": 5}"#
        }
            + [#"{"id": "webp", "picUrl": "anim.webp", "showTime": 5}"#]
        let feed = try writeFeed(dir, #"{"campaigns": [\#(entries.joined(separator: ", "))]}"#)
        let args = ["--feed", feed, "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"]
        let sync = try runKiosk(["sync"] + args)
        let said = sync.stderr
        #expect(said.contains(#"warning: campaign "wide": picture"#) && said.contains("animations up to 3840x2160 are played"), "\(said)")
        #expect(said.contains(#"warning: campaign "budget": picture"#) && said.contains("more than the decode budget"), "\(said)")
        #expect(said.contains(#"error: campaign "cut": picture"#) && said.contains("cut short"), "\(said)")
        #expect(said.contains(#"error: campaign "webp": picture"#) && said.contains("animated WebP is not shown"), "\(said)")
        #expect(!said.contains(#"campaign "one""#) && !said.contains(#"campaign "onewide""#), "\(said)")
        #expect(said.contains(#"error: campaign "bomb": picture"#) && said.contains("lies outside its 320×240 canvas"), "\(said)")
        let listed = try rows(args)
        for id in ["wide", "budget", "one"] {
            #expect(listed[id]?["eligible"] as? Bool == true && listed[id]?["video"] is NSNull, "\(id): \(String(describing: listed[id]))")
        }
        // Why they are shown still stays said after the sync: in the table and its JSON.
        #expect((listed["wide"]?["shownStill"] as? String)?.contains("up to 3840x2160") == true, "\(String(describing: listed["wide"]))")
        #expect(listed["one"]?["shownStill"] is NSNull && listed["onewide"]?["shownStill"] is NSNull)
        let table = try runKiosk(["campaigns"] + args).stdout
        #expect(table.contains("animated GIFs shown still (their first frame):") && table.contains("  budget: its frames at 3840x2160"),
                "\(table)")
        #expect(listed["cut"]?["eligible"] as? Bool == false && listed["webp"]?["eligible"] as? Bool == false
                && listed["bomb"]?["eligible"] as? Bool == false)
        // `feed check` says the same of them, by place.
        let check = try runKiosk(["feed", "check", feed])
        #expect(check.stdout.contains("campaigns[0].picUrl") && check.stdout.contains("would be shown still"), "\(check.stdout)")
        // Shown still: their first frame, no clip.
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash"] + args)
        #expect(run.events(named: "splash").first?["media"] as? String == "picture", "\(run.stdout)")
        #expect(run.events(named: "video").isEmpty && run.events(named: "error").isEmpty, "\(run.stdout)")
    }
}
