import Foundation
import SplashTestSupport
import Testing

/// A feed that uses every campaign rule, run headless: priority, the daily cap and spacing
/// decide the order of the splashes, hours and days keep two campaigns away with the time
/// they come back, a campaign's own countdown is its splash's, and its link is a QR code
/// on the detail screen that zbarimg reads back.
@Suite struct CampaignRulesHeadlessTests {
    @Test func everyFieldBehavesAsDocumented() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.jpg", width: 640, height: 360, bands: [.init(red: 30, green: 120, blue: 60)])
        // The run's clock starts at a Tuesday 10:00 in Shanghai (`--now`), and `campaigns` judges
        // a minute later: the daily cap counts by that day, whenever the test runs.
        let start = "2030-03-05T10:00:00+08:00"
        let later = "12:00-13:00"
        let otherDay = "thu"
        let link = "https://shop.example.com/spring-tea?from=kiosk&id=42"
        _ = try writeFeed(folder, """
        {"timezone": "Asia/Shanghai", "campaigns": [
          {"id": "qr", "picUrl": "a.jpg", "showTime": 100, "priority": 3, "countdown": 1, "linkUrl": "\(link)",
           "hours": ["00:00-24:00"], "days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]},
          {"id": "later", "picUrl": "a.jpg", "showTime": 100, "priority": 9, "hours": ["\(later)"]},
          {"id": "otherday", "picUrl": "a.jpg", "showTime": 100, "priority": 9, "days": ["\(otherDay)"]},
          {"id": "capped", "picUrl": "a.jpg", "showTime": 100, "priority": 4, "maxPerDay": 1,
           "updatedAt": "2026-11-02T00:00:00Z"},
          {"id": "spaced", "picUrl": "a.jpg", "showTime": 100, "priority": 4, "minInterval": 3600,
           "updatedAt": "2026-11-01T00:00:00Z"}
        ]}
        """)
        let args = ["--feed", folder + "/feed.json", "--data-dir", folder + "/data", "--cache-dir", folder + "/cache"]
        let run = try runKiosk(["--headless", "--clock", "virtual", "--now", start, "--countdown", "2", "--attract-after", "1",
                                "--exit-after", "12"] + args)
        #expect(run.status == 0, "\(run.stderr)")
        let splashes = run.events(named: "splash").compactMap { $0["campaign"] as? String }
        #expect(Array(splashes.prefix(4)) == ["capped", "spaced", "qr", "qr"], "\(splashes)")
        // qr's own countdown: 1, where the others count from 2.
        let names = run.names
        if let qr = run.events.firstIndex(where: { $0["event"] as? String == "splash" && $0["campaign"] as? String == "qr" }) {
            #expect(run.events[qr + 1]["event"] as? String == "countdown" && run.events[qr + 1]["value"] as? Int == 1,
                    "\(names)")
        }

        let listed = try runKiosk(["campaigns", "--json", "--now", "2030-03-05T10:01:00+08:00"] + args)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        func row(_ id: String) -> [String: Any] { rows.first { $0["id"] as? String == id } ?? [:] }
        #expect(row("later")["reason"] as? String == "outside its hours")
        #expect(row("later")["eligibleAgain"] as? String == "2030-03-05T04:00:00Z")
        #expect(row("otherday")["eligibleAgain"] as? String == "2030-03-06T16:00:00Z")
        #expect(row("otherday")["reason"] as? String == "not today")
        #expect(row("capped")["reason"] as? String == "daily cap reached")
        #expect(row("spaced")["reason"] as? String == "too soon")
        #expect(row("qr")["eligible"] as? Bool == true && row("qr")["newest"] as? Bool == true)

        // The detail screen of qr carries its link as a QR code that reads back exactly.
        let (detail, read) = try readCode(args + ["--now", "2030-03-05T10:02:00+08:00"], size: "1280x720", folder: folder)
        #expect(detail.events(named: "splash").first?["campaign"] as? String == "qr")
        #expect(read == link, "zbarimg read \"\(read)\"")
    }

    /// The kiosk's run to the detail screen of `args`' campaign at `size`, and what zbarimg
    /// reads on that screen (nothing when no code is drawn).
    func readCode(_ args: [String], size: String, folder: String) throws -> (run: KioskRun, code: String) {
        let snapshots = folder + "/snapshots-\(size)"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "detail", "--size", size, "--snapshot", snapshots] + args)
        let shot = try #require(try FileManager.default.contentsOfDirectory(atPath: snapshots).sorted().last { $0.hasSuffix("detail.png") })
        let zbar = Process()
        zbar.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        zbar.arguments = ["--quiet", "--raw", snapshots + "/" + shot]
        let out = Pipe()
        zbar.standardOutput = out
        zbar.standardError = FileHandle.nullDevice
        try zbar.run()
        let read = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        zbar.waitUntilExit()
        return (run, read.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The feed's warning that a link's code is left out of small screens follows the rule
    /// the screen draws by: a 250-character link is drawn at 800x480 and read back, with no
    /// warning; one of 260 is warned of and left out there, and still drawn at 1920x1080.
    @Test func theDenseLinkWarningMatchesWhatTheSmallScreenDraws() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.jpg", width: 640, height: 360, bands: [.init(red: 30, green: 120, blue: 60)])
        let base = "https://shop.example.com/spring-tea?from=kiosk&q="
        for (length, drawnSmall) in [(250, true), (260, false)] {
            let link = base + String(repeating: "x", count: length - base.count)
            _ = try writeFeed(folder, #"[{"id": "qr", "picUrl": "a.jpg", "showTime": 100, "countdown": 1, "linkUrl": "\#(link)"}]"#)
            let args = ["--feed", folder + "/feed.json", "--data-dir", folder + "/data-\(length)", "--cache-dir", folder + "/cache"]
            let check = try runKiosk(["feed", "check", folder + "/feed.json"])
            #expect(check.stdout.contains("linkUrl: is \(length) characters long") == !drawnSmall, "\(check.stdout)")
            #expect(try readCode(args, size: "800x480", folder: folder + "/\(length)").code == (drawnSmall ? link : ""))
            if !drawnSmall { #expect(try readCode(args, size: "1920x1080", folder: folder + "/\(length)").code == link) }
        }
    }
}
