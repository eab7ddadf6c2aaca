import Foundation
import SplashCore
import SplashTestSupport
import Testing

/// `splashboard feed check` and the feed's JSON Schema, each held to the other: every
/// known-good feed is clean for both, every known-bad feed is refused by both at the same
/// place.
@Suite struct FeedToolsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/Fixtures/feeds").path

    /// `feed check --json` of `feed`, decoded, with its exit status.
    func check(_ feed: String, _ extra: [String] = []) throws -> (status: Int32, report: [String: Any]) {
        let run = try runKiosk(["feed", "check", feed, "--json"] + extra)
        let report = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]) ?? [:]
        return (run.status, report)
    }

    /// The schema's verdict on each file, by the standard validator (python-jsonschema).
    func schemaVerdicts(_ files: [String]) throws -> [String: [String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("scripts/check-feed-schema.py").path,
                             Self.root.appendingPathComponent("docs/feed.schema.json").path] + files
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the schema or its validator is broken (run sh scripts/install-pydeps.sh)")
        var verdicts: [String: [String]] = [:]
        for line in data.split(separator: 0x0A) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let file = object["file"] as? String else { continue }
            verdicts[URL(fileURLWithPath: file).lastPathComponent] = (object["valid"] as? Bool) == true ? [] : object["errors"] as? [String] ?? ["?"]
        }
        return verdicts
    }

    /// A folder with `feed` and every picture it names, so only the feed itself is judged.
    func withPictures(_ feed: String) throws -> String {
        let folder = try temporaryFolder()
        let text = try String(contentsOfFile: feed, encoding: .utf8)
        try text.write(toFile: folder + "/feed.json", atomically: true, encoding: .utf8)
        let picture = try Regex(#""([A-Za-z0-9_-]+\.(?:jpg|png))""#, as: (Substring, Substring).self)
        let names = Set(text.matches(of: picture).map { String($0.1) })
        for name in names { try writeImage(folder + "/" + name, width: 64, height: 36, bands: [red]) }
        // And its clips, a second of ffmpeg's test pattern each.
        let clip = try Regex(#""([A-Za-z0-9_-]+\.(?:mp4|webm))""#, as: (Substring, Substring).self)
        for name in Set(text.matches(of: clip).map { String($0.1) }) {
            try Clips.make(folder + "/" + name, codec: name.hasSuffix(".webm") ? "libvpx-vp9" : "libx264", size: "64x48", seconds: 1)
        }
        return folder + "/feed.json"
    }

    @Test func goodFeedsAreCleanForTheCheckAndTheSchema() throws {
        let good = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures + "/good").filter { $0.hasSuffix(".json") }.sorted()
        #expect(good.count >= 6)
        let demo = Self.root.appendingPathComponent("assets/demo/feed.json").path
        let verdicts = try schemaVerdicts(good.map { Self.fixtures + "/good/" + $0 } + [demo])
        for name in good + ["feed.json"] { #expect(verdicts[name] == [], "schema: \(name): \(verdicts[name] ?? [])") }
        for name in good {
            // Some name pictures on the internet, which the tests cannot reach: the feed itself must be clean.
            let (status, report) = try check(try withPictures(Self.fixtures + "/good/" + name))
            // Pictures and clips on other hosts cannot be fetched here.
            let problems = (report["problems"] as? [String] ?? []).filter {
                !$0.contains(".picUrl: picture ") && !$0.hasPrefix("picUrl: picture ") && !$0.contains("videoUrl: video https://")
                    // Valid, and said: an empty list retires every campaign.
                    && !(name == "empty.json" && $0.hasPrefix("the feed lists no campaigns"))
            }
            #expect(status != 2 && problems.isEmpty, "\(name): \(problems)")
        }
        // The demo feed from a folder anyone may read: run as root, the check reads as nobody,
        // who cannot enter a checkout under a 0700 home.
        let copy = try temporaryFolder() + "/demo"
        try FileManager.default.copyItem(atPath: Self.root.appendingPathComponent("assets/demo").path, toPath: copy)
        let (status, report) = try check(copy + "/feed.json")
        #expect(status == 0 && report["campaigns"] as? Int == 3, "\(report)")
    }

    @Test func badFeedsAreRefusedByBothAtTheSamePlace() throws {
        let table = try String(contentsOfFile: Self.fixtures + "/bad.tsv", encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }.filter { $0.count == 2 }
        #expect(table.count >= 14)
        let verdicts = try schemaVerdicts(table.map { Self.fixtures + "/bad/" + $0[0] })
        for row in table {
            let (name, place) = (row[0], row[1])
            #expect(verdicts[name]?.contains { $0.hasPrefix(place) } == true, "schema: \(name): \(verdicts[name] ?? [])")
            let (status, report) = try check(try withPictures(Self.fixtures + "/bad/" + name))
            #expect(status == 1 || status == 2, "\(name): \(report)")
            let problems = (report["problems"] as? [String] ?? []) + [report["error"] as? String].compactMap { $0 }
            // The decoder names a list's field where the schema names the item: `hours` for `hours[0]`.
            let field = place.replacing(try Regex(#"\[\d+\]$"#), with: "")
            #expect(problems.contains { $0.hasPrefix(place) || $0.hasPrefix(field + ":") || place == "(document)" || place == "campaigns" },
                    "\(name) at \(place): \(problems)")
        }
    }

    /// Every mistake at once: each is named by its place, then a summary; nothing of the
    /// device is opened or made.
    @Test func aFeedWithEveryMistakeNamesEachByItsPlace() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/ok.jpg", width: 64, height: 36, bands: [red])
        try "<html><title>Not Found</title></html>".write(toFile: folder + "/page.jpg", atomically: true, encoding: .utf8)
        try #"""
        {"messge": "hi", "timezone": "CST", "campaigns": [
          {"id": "a", "picUrl": "ok.jpg", "showTime": 3, "startAt": "2026-13-01T00:00:00Z", "linkURL": "https://x.example/",
           "title": "Tea 𓀀 مرحبا"},
          {"id": "b", "picUrl": "ok.jpg", "showTime": "3"},
          {"id": "c", "picUrl": "missing.jpg", "showTime": 3, "endAt": "2026-12-01", "linkUrl": "ftp://x"},
          {"id": "d", "picUrl": "page.jpg", "showTime": 3, "timezone": "Asia/Tokyo"}
        ]}
        """#.write(toFile: folder + "/feed.json", atomically: true, encoding: .utf8)
        let data = folder + "/device-data"
        let run = try runKiosk(["feed", "check", folder + "/feed.json", "--data-dir", data, "--cache-dir", folder + "/device-cache"])
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 11, "\(run.stdout)")
        #expect(lines.contains("messge: unknown field; did you mean message?"))
        #expect(lines.contains("campaigns[0].linkURL: unknown field; did you mean linkUrl?"))
        // A zone abbreviation is ambiguous; a zone belongs to the feed, not a campaign.
        #expect(lines.contains { $0.hasPrefix(#"timezone: "CST" is an abbreviation"#) })
        #expect(lines.contains { $0.hasPrefix(#"campaigns[3].timezone: the zone is set once for the whole feed"#) })
        // The hieroglyph is in no font here; the Arabic is, though not in the kiosk's own.
        #expect(lines.contains { $0.hasPrefix(#"campaigns[0].title: "𓀀" (U+13000) cannot be drawn by any font installed"#) })
        #expect(lines.contains { $0.hasPrefix(#"campaigns[0].startAt: "2026-13-01T00:00:00Z" is not an ISO 8601 date (there is no month 13)"#) })
        #expect(lines.contains(#"campaigns[1].showTime: must be a whole number ≥ 0, got "3"; campaign "b" skipped"#))
        #expect(lines.contains { $0.hasPrefix("campaigns[2].linkUrl: must be an http or https URL") })
        #expect(lines.contains("campaigns[2].picUrl: picture file://\(folder)/missing.jpg could not be fetched: no such file: \(folder)/missing.jpg"))
        #expect(lines.contains { $0.hasPrefix("campaigns[3].picUrl: picture file://\(folder)/page.jpg refused: not an image: the data looks like an HTML page") })
        // Two of the three have no picture to show: applied, they wait for it.
        #expect(lines.last == "file://\(folder)/feed.json: 3 campaigns would apply (2 of them not shown until their pictures are fixed), "
                + "3 pictures checked; 10 problems")
        #expect(!FileManager.default.fileExists(atPath: data) && !FileManager.default.fileExists(atPath: folder + "/device-cache"))
        // A feed read whole whose every entry is invalid has problems (1): each is named.
        try #"[{"id": "x", "picUrl": "ok.jpg"}, {"id": "y", "showTime": 2}]"#.write(toFile: folder + "/none.json", atomically: true, encoding: .utf8)
        let none = try check(folder + "/none.json")
        #expect(none.status == 1, "\(none.report)")
        #expect((none.report["problems"] as? [String])?.last?.hasPrefix("(document): no campaign in the feed is valid") == true)
        #expect((none.report["problems"] as? [String])?.first == #"[0].showTime: is missing; campaign "x" skipped"#)
        // A feed that cannot be read at all is 2.
        try "<!DOCTYPE html><html></html>".write(toFile: folder + "/page.json", atomically: true, encoding: .utf8)
        let unreadable = try check(folder + "/page.json")
        #expect(unreadable.status == 2)
        #expect((unreadable.report["error"] as? String)?.hasPrefix("the feed URL answered an HTML page") == true)
    }

    /// `preview`: each campaign's two screens at each size and a contact sheet; nothing of
    /// the device opened, no show recorded, no tracking ping sent.
    @Test func previewDrawsEveryCampaignAtEverySizeAndSendsNothing() throws {
        let folder = try temporaryFolder()
        let www = folder + "/www"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let server = try TestServer(root: www)
        try writeImage(www + "/a.png", width: 640, height: 360, bands: [red])
        try writeImage(www + "/b.png", width: 360, height: 640, bands: [RGBColor(red: 20, green: 90, blue: 200)])
        try writeImage(www + "/a-tall.png", width: 360, height: 640, bands: [green])
        let track = server.url("/track/imp?c={campaign}").absoluteString
        try #"""
        {"message": "看看", "campaigns": [
          {"id": "a/1", "picUrl": "a.png", "picUrlPortrait": "a-tall.png", "showTime": 1, "title": "横", "impressionUrls": ["\#(track)"], "startAt": "2099-01-01"},
          {"id": "b", "picUrl": "b.png", "showTime": 0, "detail": "竖的图片"}]}
        """#.write(toFile: www + "/feed.json", atomically: true, encoding: .utf8)
        let out = folder + "/out"
        let run = try runKiosk(["preview", server.url("/files/feed.json").absoluteString, "--size", "800x480", "--size", "480x800",
                                "--out", out, "--data-dir", folder + "/device-data", "--cache-dir", folder + "/device-cache"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["01-a_1-480x800-detail.png", "01-a_1-480x800-splash.png", "01-a_1-800x480-detail.png",
                          "01-a_1-800x480-splash.png", "02-b-480x800-detail.png", "02-b-480x800-splash.png",
                          "02-b-800x480-detail.png", "02-b-800x480-splash.png", "contact-sheet.png"], "\(files)")
        // Each at its size, the campaign's own picture on its splash (not the default one).
        let splash = try Snapshot(out + "/01-a_1-800x480-splash.png")
        #expect(splash.width == 800 && splash.height == 480)
        #expect(splash.color(400, 240).isClose(to: red, tolerance: 40), "\(splash.color(400, 240))")
        // On the portrait screen, its picture for portrait screens.
        let tall = try Snapshot(out + "/01-a_1-480x800-splash.png")
        #expect(tall.color(240, 400).isClose(to: green, tolerance: 40), "\(tall.color(240, 400))")
        let portrait = try Snapshot(out + "/02-b-480x800-detail.png")
        #expect(portrait.width == 480 && portrait.height == 800)
        #expect(run.stdout.contains("2 campaigns at 2 sizes: 8 screens in \(out)"), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/device-data"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/device-cache"))
        #expect(try server.requestCounts().keys.filter { $0.hasPrefix("/track") }.isEmpty)
    }

    /// `preview` says, a line per screen, what a campaign's detail screen had to give up at a
    /// size: a long text cut on 800x480 (with how much of it is shown), nothing for a short one.
    @Test func previewSaysWhatEachScreenGaveUp() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.png", width: 640, height: 360, bands: [red])
        let long = String(repeating: "十二月十八日晚七点，城市美术馆一层大厅。现场公布年度设计奖项，并首次展出秋季新品。", count: 14)
        _ = try writeFeed(folder, #"[{"id": "long", "picUrl": "a.png", "showTime": 1, "title": "发布会", "detail": "\#(long)"},"#
                          + #"{"id": "short", "picUrl": "a.png", "showTime": 1, "title": "春茶", "detail": "今天到店。"}]"#)
        let run = try runKiosk(["preview", folder + "/feed.json", "--size", "800x480", "--size", "1920x1080", "--out", folder + "/out"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let said = run.stdout.split(separator: "\n").filter { $0.contains(": detail: ") }
        let small = said.first { $0.hasPrefix("long at 800x480: detail: ") }
        #expect(small?.contains("the text cut after ") == true && small?.contains(" of ") == true, "\(run.stdout)")
        #expect(!said.contains { $0.hasPrefix("short at ") }, "\(said)")
    }

    /// `feed check` lays each title out as the detail screen would, at preview's default sizes,
    /// and names one its screens would cut, with what is left of it; a title that fits passes,
    /// one that ends in "…" of its own included.
    @Test func feedCheckWarnsOfATitleTheScreensCut() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.png", width: 640, height: 640, bands: [red])
        let long = "二〇二六年度城市设计颁奖典礼暨秋季新品发布会与自然对话之夜：建筑、景观、室内与产品设计四大类别年度大奖揭晓及颁奖晚宴"
        _ = try writeFeed(folder, #"[{"id": "long", "picUrl": "a.png", "showTime": 1, "title": "\#(long)", "detail": "今晚七点。"},"#
                          + #"{"id": "short", "picUrl": "a.png", "showTime": 1, "title": "二〇二六年度设计颁奖典礼暨秋季新品发布会：城市与自然的对话之夜"},"#
                          + #"{"id": "dots", "picUrl": "a.png", "showTime": 1, "title": "新品即将上市…"}]"#)
        let run = try runKiosk(["feed", "check", folder + "/feed.json"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let cut = run.stdout.split(separator: "\n").filter { $0.contains(".title: cut on the detail screen at ") }
        #expect(cut.count == 1 && cut.first?.hasPrefix("[0].title: ") == true && cut.first?.contains("800x480") == true, "\(run.stdout)")
        #expect(run.stdout.contains("; 1 problem"), "\(run.stdout)")
        // The JSON report carries it too, and not the campaigns' words it was found with.
        let (status, report) = try check(folder + "/feed.json")
        #expect(status == 1 && (report["problems"] as? [String])?.contains { $0.hasPrefix("[0].title: cut") } == true, "\(report)")
        #expect(report["texts"] == nil && report["address"] == nil)
    }

    /// Run as root, `feed check` and `preview` leave root before they fetch anything: a
    /// feed in a folder only root may read cannot be read, and they say whom they run as.
    @Test(.enabled(if: getuid() == 0)) func asRootTheToolsFetchNothingAsRoot() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.png", width: 64, height: 36, bands: [red])
        _ = try writeFeed(folder, #"[{"id": "a", "picUrl": "a.png", "showTime": 1}]"#)
        #expect(chmod(folder, 0o700) == 0)
        let check = try runKiosk(["feed", "check", folder + "/feed.json"])
        #expect(check.status == 2, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("note: running as ") && check.stderr.contains("nothing from the network is read as root"),
                "\(check.stderr)")
        #expect(check.stdout.contains("permission denied"), "\(check.stdout)")
        // Readable to all, it is checked as any user would check it.
        #expect(chmod(folder, 0o755) == 0)
        #expect(try runKiosk(["feed", "check", folder + "/feed.json"]).status == 0)
        // `preview` runs as that user into a folder of its own, and copies its screens into
        // the folder asked for, root's as it is.
        let out = try temporaryFolder() + "/out"
        let preview = try runKiosk(["preview", folder + "/feed.json", "--size", "320x240", "--out", out])
        #expect(preview.status == 0 && preview.stderr.contains("note: running as "), "\(preview.stdout)\(preview.stderr)")
        #expect(preview.stdout.contains(out + "/contact-sheet.png"), "\(preview.stdout)")
        var st = stat()
        #expect(stat(out + "/01-a-320x240-splash.png", &st) == 0 && st.st_uid == 0)
    }

    /// "Your first feed" as the README gives it, word for word, in a home of its own: the
    /// feed it writes is clean, a kiosk on it shows its campaign, and the hand-run sync
    /// after a picture is replaced fetches the new one. (`make run` is the kiosk itself: it
    /// runs here headless instead.)
    @Test func theREADMEsFirstFeedWorksAsWritten() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        // Swift 6.0's #require cannot expand an optional chain that ends in a property.
        let after: String = try #require(readme.components(separatedBy: "## Your first feed").dropFirst().first)
        let section: String = try #require(after.components(separatedBy: "\n## ").first)
        let blocks = section.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.count == 3)
        let home = try temporaryFolder()
        let environment = kioskEnvironment(["HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        func shell(_ script: String) throws -> KioskRun {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-e", "-c", script.replacingOccurrences(of: ".build/release/splashboard", with: Binary.path)]
            process.currentDirectoryURL = Self.root
            process.environment = environment
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            try process.run()
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return KioskRun(status: process.terminationStatus, stdout: said, stderr: "")
        }
        let first = blocks[0].split(separator: "\n").filter { !$0.hasPrefix("make run") }.joined(separator: "\n")
        let made = try shell(first)
        #expect(made.status == 0 && made.stdout.contains("1 campaign would apply, 1 picture checked; no problems"), "\(made.stdout)")
        let feed = home + "/kiosk-feed/feed.json"
        // `make run` keeps what it syncs in the default data and cache folders (on the real clock: a trial
        // on the virtual clock would keep out of them).
        let run = try runKiosk(["--headless", "--countdown", "1", "--exit-after", "splash", "--feed", feed], environment: environment)
        #expect(run.events(named: "splash").first?["campaign"] as? String == "winter-sale", "\(run.stdout)")
        // Status and campaigns ask a running kiosk and the stored catalog: the latter answers here.
        let listed = try shell(blocks[1].split(separator: "\n").filter { !$0.contains(" status") }.joined(separator: "\n"))
        #expect(listed.stdout.contains("winter-sale") && listed.stdout.contains("冬季特卖 Winter sale"), "\(listed.stdout)")
        // A new picture in place, and the README's sync by hand.
        try writeImage(home + "/kiosk-feed/sale.jpg", width: 320, height: 180, bands: [blue])
        let synced = try shell(blocks[2])
        #expect(synced.status == 0 && synced.stdout.contains("changed on its server and fetched again: file://"), "\(synced.stdout)")
    }

    /// The feeds the README shows are clean, for `feed check` and for the schema, and
    /// `preview` draws the README's example.
    @Test func theREADMEsFeedsAreClean() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Campaign feed").dropFirst().first)
        let blocks = section.components(separatedBy: "```json\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.count >= 3)
        var files: [String] = []
        for (index, block) in blocks.enumerated() {
            let folder = try temporaryFolder()
            try block.write(toFile: folder + "/readme-\(index).json", atomically: true, encoding: .utf8)
            let feed = try withPictures(folder + "/readme-\(index).json")
            files.append(folder + "/readme-\(index).json")
            let (status, report) = try check(feed)
            let problems = (report["problems"] as? [String] ?? []).filter {
                !$0.contains("picture https://") && !$0.contains("video https://")
            }
            #expect(status != 2 && problems.isEmpty, "README feed \(index): \(report)")
        }
        let verdicts = try schemaVerdicts(files)
        for file in files { #expect(verdicts[URL(fileURLWithPath: file).lastPathComponent] == [], "\(file)") }
        let last = try withPictures(files[files.count - 1])
        let out = try temporaryFolder() + "/preview"
        let preview = try runKiosk(["preview", last, "--size", "800x480", "--out", out])
        #expect(preview.status == 0, "\(preview.stdout)\(preview.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/contact-sheet.png"))
    }
}
