import Foundation
import SplashCore
import SplashTestSupport
import Testing

/// Video campaigns with clips made by ffmpeg: checked by the media process before they are
/// cached, played under the pill by the real binaries (one snapshot per countdown second,
/// the same frames at every run with a virtual clock), counted once, and a media process
/// that fails leaving the poster up.
@Suite(.serialized) struct VideoCampaignTests {
    /// A folder with a red poster and a feed of `campaigns` (id, clip file) each shown
    /// `shows` times.
    func folder(_ campaigns: [(String, String)], shows: Int = 1) throws -> (dir: String, args: [String]) {
        let dir = try temporaryFolder()
        try writeImage(dir + "/poster.png", width: 1280, height: 720, bands: [red])
        let entries = campaigns.map { #"{"id": "\#($0.0)", "picUrl": "poster.png", "videoUrl": "\#($0.1)", "showTime": \#(shows)}"# }
        let feed = try writeFeed(dir, #"{"campaigns": [\#(entries.joined(separator: ", "))]}"#)
        return (dir, ["--feed", feed, "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"])
    }

    func rows(_ args: [String]) throws -> [String: [String: Any]] {
        let listed = try runKiosk(["campaigns", "--json"] + args)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0) })
    }

    /// A clip shown whole comes as planar YUV and is turned into the screen's pixels by the
    /// display: its colours are the clip's, neither washed out nor too dark (a range taken
    /// for the other moves them by 15 levels or more), and its red and blue not swapped —
    /// a clip in studio range (most) and one in full range (a phone's, yuvj420p).
    @Test(arguments: ["yuv420p", "yuvj420p"]) func aPlanarClipKeepsItsColours(pixelFormat: String) throws {
        let (dir, args) = try folder([("solid", "c.mp4")], shows: 2)
        try Clips.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x3366CC:size=320x240:rate=30", "-t", "2",
                                 "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", pixelFormat, dir + "/c.mp4"])
        #expect(try runKiosk(["sync"] + args).status == 0)
        // Scaled to the screen, and on a screen of the clip's own size (frames not scaled).
        for size in [Size(width: 1280, height: 720), Size(width: 320, height: 240)] {
            let shots = dir + "/shots-\(size)"
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--size", "\(size)",
                                    "--snapshot", shots] + args)
            #expect(run.status == 0, "\(run.stderr)")
            let files = snapshots(shots).filter { $0.hasSuffix("-splash.png") }
            let frame = try Snapshot(try #require(files.dropFirst().first, "no frame of the clip: \(files)"))
            let seen = frame.color(size.width / 4, size.height / 2)
            #expect(seen.isClose(to: RGBColor(red: 0x33, green: 0x66, blue: 0xCC), tolerance: 8), "\(pixelFormat) \(size): \(seen)")
        }
    }

    @Test func h264AndVP9ClipsPlayUnderThePillOneSnapshotASecond() throws {
        let (dir, args) = try folder([("h264", "a.mp4"), ("vp9", "b.webm")])
        try Clips.make(dir + "/a.mp4", seconds: 2)
        try Clips.make(dir + "/b.webm", codec: "libvpx-vp9", seconds: 2)
        let sync = try runKiosk(["sync"] + args)
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        let synced = try rows(args)
        #expect((synced["h264"]?["video"] as? [String: Any])?["facts"] as? String == "h264 320x240 30 fps 2.0 s", "\(synced)")
        #expect((synced["vp9"]?["video"] as? [String: Any])?["facts"] as? String == "vp9 320x240 30 fps 2.0 s", "\(synced)")
        // Newest first (vp9), then the other: each shown once, as a video.
        var played: [String] = []
        for round in 0..<2 {
            let shots = dir + "/shots-\(round)"
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--snapshot", shots] + args)
            #expect(run.status == 0, "\(run.stderr)")
            let splash = try #require(run.events(named: "splash").first)
            #expect(splash["media"] as? String == "video", "\(run.stdout)")
            played.append(splash["campaign"] as? String ?? "")
            // The countdown is the clip's length, and nothing went wrong.
            #expect(run.events(named: "countdown").compactMap { $0["value"] as? Int } == [2, 1])
            #expect(run.events(named: "error").isEmpty, "\(run.stdout)")
            #expect(run.events(named: "video").first?["ms"] as? Int == 0, "\(run.stdout)")
            // The poster, then one snapshot per countdown second, each a frame of the clip
            // (the test pattern, not the poster's red) with the pill over it.
            let files = snapshots(shots).filter { $0.hasSuffix("-splash.png") }
            #expect(files.count == 3, "\(files)")
            guard files.count == 3 else { continue }
            let poster = try Snapshot(files[0]), first = try Snapshot(files[1]), second = try Snapshot(files[2])
            #expect(poster.color(640, 400).isClose(to: red, tolerance: 24))
            // 4:3, flush left: the pill's bar on the right.
            let clip = Rect(x: 0, y: 0, width: 960, height: 720)
            #expect(first.count(in: clip, differingFrom: red) > 960 * 720 / 2, "the clip is on the screen")
            #expect(first.differences(from: second, in: clip) > 10_000, "the frames differ a second apart")
            // Letterboxed on the background, not on the poster.
            #expect(first.color(1000, 360).isClose(to: RGBColor(red: 0, green: 0, blue: 0), tolerance: 8), "\(first.color(1000, 360))")
            let pill = SkipButton(screen: Size(width: 1280, height: 720)).frame
            #expect(first.differences(from: second, in: pill) > 0, "the pill counts down over the clip")
        }
        #expect(played == ["vp9", "h264"])
        // Each show counted once; the ledger knows both were videos.
        let after = try rows(args)
        #expect(after["h264"]?["remaining"] as? Int == 0 && after["vp9"]?["remaining"] as? Int == 0, "\(after)")
        // A virtual clock plays the same frames at the same moments: a second run is identical.
        let again = try folder([("h264", "a.mp4")])
        try FileManager.default.copyItem(atPath: dir + "/a.mp4", toPath: again.dir + "/a.mp4")
        _ = try runKiosk(["sync"] + again.args)
        _ = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--snapshot", again.dir + "/s"] + again.args)
        let twice = snapshots(again.dir + "/s").filter { $0.hasSuffix("-splash.png") }
        let once = snapshots(dir + "/shots-1").filter { $0.hasSuffix("-splash.png") }
        #expect(twice.count == once.count)
        for (a, b) in zip(once, twice) {
            let (x, y) = (try Snapshot(a), try Snapshot(b))
            #expect(x.differences(from: y, in: Rect(x: 0, y: 0, width: 1280, height: 720)) == 0, "\(a) and \(b) differ")
        }
    }

    /// `feed check` fetches and probes the clips as a sync would, and names each that would
    /// not be played by its place.
    /// A letterboxed clip makes room for the pill as a picture does (a 4:3 clip on 1280x720
    /// moves left, the pill in the bar), and the pill is the same solid pill a second and
    /// sixty frames in: each frame puts the background back under it.
    @Test func aLetterboxedClipLeavesThePillItsBar() throws {
        let (dir, args) = try folder([("h264", "a.mp4")])
        try Clips.make(dir + "/a.mp4", codec: "libx264", seconds: 2)
        #expect(try runKiosk(["sync"] + args).status == 0)
        let shots = dir + "/shots"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--snapshot", shots,
                                "--background", "#FFFFFF"] + args)
        #expect(run.status == 0, "\(run.stderr)")
        let files = snapshots(shots).filter { $0.hasSuffix("-splash.png") }
        let last = try Snapshot(try #require(files.last))
        let pill = SkipButton(screen: Size(width: 1280, height: 720)).frame
        let fill = last.color(pill.x + pill.height / 4, pill.center.y)
        #expect(fill == RGBColor(red: 0x26, green: 0x26, blue: 0x26), "\(fill)")
        // The clip (960x720) stands at the left edge: the bar from its right edge to the pill is white.
        let bar = Rect(x: 965, y: 0, width: pill.x - 965, height: 720)
        #expect(last.count(in: bar, differingFrom: RGBColor(red: 255, green: 255, blue: 255), by: 10) == 0, "\(bar)")
        #expect(last.count(in: Rect(x: 60, y: 300, width: 900, height: 100), differingFrom: RGBColor(red: 255, green: 255, blue: 255), by: 10) > 50_000,
                "the clip on the left")
    }

    @Test func feedCheckProbesTheClips() throws {
        let (dir, _) = try folder([("ok", "a.mp4"), ("long", "long.mp4"), ("missing", "nope.mp4"), ("avi", "old.avi"),
                                   ("mpg", "old.mpg")])
        try Clips.make(dir + "/a.mp4", seconds: 1)
        try Clips.make(dir + "/long.mp4", size: "64x48", rate: 2, seconds: 61)
        try Clips.make(dir + "/old.avi", codec: "mpeg4", size: "64x48", seconds: 1)
        try Clips.make(dir + "/old.mpg", codec: "mpeg2video", size: "64x48", seconds: 1)
        let run = try runKiosk(["feed", "check", dir + "/feed.json"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let said = run.stdout + run.stderr
        #expect(said.contains("5 pictures and 5 videos checked") || said.contains("1 picture and 5 videos checked"), "\(said)")
        // A container that is not played is named by what it is, with the way to convert it.
        #expect(said.contains("campaigns[3].videoUrl: video") && said.contains("an AVI file, a kind of clip this kiosk does not play"), "\(said)")
        #expect(said.contains("campaigns[4].videoUrl: video") && said.contains("an MPEG program stream (.mpg, .vob)"), "\(said)")
        #expect(said.contains("`ffmpeg -i CLIP -c:v libx264 -an CLIP.mp4`"), "\(said)")
        #expect(said.contains("campaigns[1].videoUrl: video") && said.contains("clips up to 60 s are played"), "\(said)")
        #expect(said.contains("campaigns[2].videoUrl: video") && said.contains("could not be fetched"), "\(said)")
        #expect(!said.contains("campaigns[0].videoUrl"), "\(said)")
    }

    /// A FIFO planted where a clip is cached (as a compromised network process could) does
    /// not freeze the display: the clip is refused at once, the poster stays up, the
    /// countdown runs to its end.
    @Test func aFIFOInPlaceOfACachedClipNeverFreezesTheScreen() throws {
        let (dir, args) = try folder([("clip", "a.mp4")], shows: 5)
        try Clips.make(dir + "/a.mp4", size: "64x48", seconds: 2)
        _ = try runKiosk(["sync"] + args)
        let cached = dir + "/cache/" + SHA256.hex(URL(fileURLWithPath: dir + "/a.mp4").absoluteString)
        #expect(FileManager.default.fileExists(atPath: cached))
        try FileManager.default.removeItem(atPath: cached)
        #expect(mkfifo(cached, 0o644) == 0)
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash"] + args)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events(named: "countdown").compactMap { $0["value"] as? Int } == [2, 1], "\(run.stdout)")
        #expect(run.events(named: "skip").first?["by"] as? String == "timeout")
        let errors = run.events(named: "error").compactMap { $0["message"] as? String }
        #expect(errors.contains { $0.contains("the clip is refused") && $0.contains("is not a regular file") }, "\(errors)")
    }

    /// `preview` of a clip campaign shows the splash the kiosk shows: its poster under the
    /// countdown the clip gives it (its length, 7), not the kiosk's default.
    @Test func previewOfAClipShowsTheKiosksCountdown() throws {
        let (dir, args) = try folder([("clip", "a.mp4")], shows: 5)
        try Clips.make(dir + "/a.mp4", size: "64x48", rate: 10, seconds: 6.5)
        let preview = try runKiosk(["preview", dir + "/feed.json", "--size", "800x480", "--out", dir + "/preview"])
        #expect(preview.status == 0, "\(preview.stdout)\(preview.stderr)")
        _ = try runKiosk(["sync"] + args)
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame", "--size", "800x480",
                                "--snapshot", dir + "/kiosk"] + args)
        #expect(run.events(named: "countdown").first?["value"] as? Int == 7, "\(run.stdout)")
        let kiosk = try Snapshot(try #require(snapshots(dir + "/kiosk").first { $0.hasSuffix("-splash.png") }))
        let previewed = try Snapshot(dir + "/preview/01-clip-800x480-splash.png")
        #expect(previewed.differences(from: kiosk, in: Rect(x: 0, y: 0, width: 800, height: 480)) == 0)
    }

    /// A countdown longer than the clip: the clip loops, its frames going on past its end.
    @Test func aClipShorterThanItsCountdownLoops() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/poster.png", width: 1280, height: 720, bands: [red])
        try Clips.make(dir + "/a.mp4", seconds: 1)
        let feed = try writeFeed(dir, #"{"campaigns": [{"id": "a", "picUrl": "poster.png", "videoUrl": "a.mp4", "showTime": 5, "countdown": 3}]}"#)
        let args = ["--feed", feed, "--data-dir", dir + "/data", "--cache-dir", dir + "/cache"]
        _ = try runKiosk(["sync"] + args)
        let shots = dir + "/shots"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--snapshot", shots] + args)
        #expect(run.events(named: "countdown").compactMap { $0["value"] as? Int } == [3, 2, 1])
        #expect(run.events(named: "error").isEmpty, "\(run.stdout)")
        // 3 s of a 1 s clip at 30 frames a second: about 90 frames, none dropped.
        let ended = try #require(run.events(named: "video_ended").first, "\(run.stdout)")
        #expect((ended["presented"] as? Int ?? 0) >= 85 && ended["dropped"] as? Int == 0, "\(ended)")
        // The second and third seconds show the clip again, not a still last frame.
        let files = snapshots(shots).filter { $0.hasSuffix("-splash.png") }
        #expect(files.count == 4, "\(files)")
        if files.count == 4 {
            let (first, third) = (try Snapshot(files[1]), try Snapshot(files[3]))
            #expect(first.differences(from: third, in: Rect(x: 160, y: 0, width: 960, height: 720)) < 20_000,
                    "a loop starts again from the first frame")
            #expect(try Snapshot(files[2]).count(in: Rect(x: 160, y: 0, width: 960, height: 720), differingFrom: red) > 300_000)
        }
    }

    @Test func clipsBeyondALimitOrBrokenAreNotCachedAndThePosterIsShown() throws {
        let (dir, args) = try folder([("long", "long.mp4"), ("wide", "wide.mp4"), ("fast", "fast.mp4"), ("cut", "cut.mp4"),
                                      ("lying", "lying.mp4"), ("page", "page.mp4"), ("big", "big.mp4")])
        try Clips.make(dir + "/long.mp4", size: "64x48", rate: 2, seconds: 61)
        try Clips.make(dir + "/wide.mp4", size: "3856x2176", rate: 1, seconds: 1)
        try Clips.make(dir + "/fast.mp4", size: "64x48", rate: 120, seconds: 0.5)
        try Clips.make(dir + "/big.mp4", size: "640x480", seconds: 2, extra: ["-b:v", "8M", "-minrate", "8M", "-maxrate", "8M",
                                                                             "-bufsize", "8M"])
        // Cut short: the index at the end is gone.
        try Clips.make(dir + "/whole.mp4", seconds: 2)
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/whole.mp4"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: dir + "/cut.mp4"))
        // A container that says HEVC over H.264 data: its frames do not decode.
        var lying = whole
        for tag in [("avc1", "hev1"), ("avcC", "hvcC")] {
            while let range = lying.range(of: Data(tag.0.utf8)) { lying.replaceSubrange(range, with: Data(tag.1.utf8)) }
        }
        try lying.write(to: URL(fileURLWithPath: dir + "/lying.mp4"))
        try "<!doctype html><html><body>Not found</body></html>".write(toFile: dir + "/page.mp4", atomically: true, encoding: .utf8)
        let sync = try runKiosk(["sync", "--video-max-mb", "1"] + args)
        #expect(sync.status == 0, "\(sync.stderr)")
        let said = sync.stderr
        for (id, why) in [("long", "clips up to 60 s"), ("wide", "clips up to 3840x2160"), ("fast", "up to 60 are played"),
                          ("cut", "not a video this kiosk reads"), ("lying", "do not decode"),
                          ("page", "looks like an HTML page"), ("big", "larger than video-max-mb (1 MiB)")] {
            #expect(said.contains("campaign \(id): video") && said.contains(why), "\(id): \(why) not in:\n\(said)")
        }
        // Nothing of them was cached: the poster only, one file for all.
        let cached = try FileManager.default.contentsOfDirectory(atPath: dir + "/cache").filter { !$0.hasPrefix(".") }
        #expect(cached.count == 1, "\(cached)")
        let listed = try rows(args)
        for id in ["long", "wide", "fast", "cut", "lying", "page", "big"] {
            let video = listed[id]?["video"] as? [String: Any]
            #expect(video?["played"] as? Bool == false && video?["problem"] is String, "\(id): \(String(describing: video))")
        }
        // A sync run by hand checks them again and says so again; fixed in place, one plays.
        try Clips.make(dir + "/fast.mp4", size: "64x48", rate: 30, seconds: 1)
        let next = try runKiosk(["sync", "--video-max-mb", "1"] + args)
        #expect(next.stderr.contains("campaign long: video") && !next.stderr.contains("campaign fast: video"), "\(next.stderr)")
        #expect((try rows(args)["fast"]?["video"] as? [String: Any])?["played"] as? Bool == true)
        // Shown as a picture.
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash"] + args)
        #expect(run.events(named: "splash").first?["media"] as? String == "picture", "\(run.stdout)")
        // The one refused for its size plays once video-max-mb is raised.
        let raised = try runKiosk(["sync", "--video-max-mb", "100"] + args)
        #expect(raised.stderr.contains("campaign long: video") && !raised.stderr.contains("campaign big: video"),
                "\(raised.stderr)")
        let big = try rows(args)["big"]?["video"] as? [String: Any]
        #expect(big?["played"] as? Bool == true, "\(String(describing: big))")
    }

    @Test func aMediaProcessThatFailsLeavesThePosterUpAndTheCountdownGoesOn() throws {
        let (dir, args) = try folder([("a", "a.mp4")], shows: 100)
        try Clips.make(dir + "/a.mp4", seconds: 3)
        _ = try runKiosk(["sync"] + args)
        // Stand-ins for the media process: one that sends garbage, one that dies, one that
        // floods the same slot, one that never answers.
        let behaviours = [
            ("garbage", "printf 'ready 1 1 4 4\\nhello\\n' >&3; sleep 30", "did not"),
            ("dies", "exit 3", "ended"),
            ("floods", "cat <&3 >/dev/null & while :; do printf 'frame 0 0\\n' >&3 || exit; done", "did not"),
            ("silent", "sleep 30", "no frame"),
        ]
        for (name, script, _) in behaviours {
            let program = dir + "/media-\(name)"
            try "#!/bin/sh\n\(script)\n".write(toFile: program, atomically: true, encoding: .utf8)
            chmod(program, 0o755)
            var environment = ProcessInfo.processInfo.environment
            environment["SPLASHBOARD_MEDIA"] = program
            let shots = dir + "/shots-\(name)"
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--snapshot", shots] + args,
                                   environment: environment)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            let errors = run.events(named: "error").compactMap { $0["message"] as? String }
            #expect(errors.count == 1 && errors[0].contains("its picture stays on the screen"), "\(name): \(errors)")
            // The countdown ran to its end, and every snapshot is the poster.
            #expect(run.events(named: "countdown").compactMap { $0["value"] as? Int } == [3, 2, 1], "\(name)")
            #expect(run.events(named: "skip").first?["by"] as? String == "timeout", "\(name)")
            for file in snapshots(shots).filter({ $0.hasSuffix("-splash.png") }) {
                #expect(try Snapshot(file).color(640, 400).isClose(to: red, tolerance: 24), "\(name): \(file)")
            }
        }
    }
}
