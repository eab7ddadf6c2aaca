import Foundation
import SplashTestSupport
import Testing

@Suite struct CommandLineTests {
    @Test func helpAndVersion() throws {
        let help = try runKiosk(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--exit-after"))
        let version = try runKiosk(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("splashboard 0."))
    }

    @Test(arguments: [
        ["--countdown", "99"], ["--fit", "zoom"], ["--size", "big"], ["--nonsense"], ["--rotate", "45"],
        ["--exit-after", "never"], ["--background", "blue"],
    ])
    func badOptionsExit2WithOneLineAndWriteNothing(args: [String]) throws {
        let dir = try temporaryFolder()
        let shots = dir + "/shots"
        let run = try runKiosk(["--headless", "--snapshot", shots, "--data-dir", dir + "/data"] + args)
        #expect(run.status == 2)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(args[0]) == true, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: shots))
        #expect(!FileManager.default.fileExists(atPath: dir + "/data"))
    }

    @Test func aSnapshotFolderThatCannotBeWrittenIsNamed() throws {
        let dir = try temporaryFolder()
        try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        for (folder, reason) in [(dir + "/file", "it is a file, not a folder"), (dir + "/file/shots", "it cannot be made: not a directory")] {
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--data-dir", dir + "/data",
                                    "--snapshot", folder])
            #expect(run.status != 0)
            #expect(run.stderr.contains("--snapshot \(folder): cannot write snapshots there (\(reason))"), "\(run.stderr)")
        }
    }

    @Test func aVirtualClockRunWithoutADataFolderNeverWritesTheDevicesLedger() throws {
        let dir = try temporaryFolder()
        try writeImage(dir + "/a.png", width: 320, height: 180, bands: [red])
        let feed = try writeFeed(dir, #"[{"id": "a", "picUrl": "a.png", "showTime": 5}]"#)
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir + "/home"
        for name in ["XDG_STATE_HOME", "XDG_CACHE_HOME", "STATE_DIRECTORY", "CACHE_DIRECTORY"] { env[name] = nil }
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--feed", feed, "--keep-scratch"],
                               environment: env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events(named: "splash").first?["campaign"] as? String == "a", "\(run.stdout)")
        // The device's own folder is never made; the scratch folder (kept here, to look at) holds the show.
        #expect(!FileManager.default.fileExists(atPath: dir + "/home/state/splashboard/splashboard.db"))
        let said = try #require(run.stderr.range(of: "this trial starts empty in "), "\(run.stderr)")
        let scratch = String(run.stderr[said.upperBound...].prefix { $0 != "," })
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let listed = try runKiosk(["campaigns", "--json", "--feed", feed, "--data-dir", scratch + "/data",
                                   "--cache-dir", scratch + "/cache"], environment: env)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["shows"] as? Int == 1, "\(listed.stdout)")
    }

    @Test func aBadScriptLineIsNamed() throws {
        let dir = try temporaryFolder()
        try "0.5 tap skip\nlater key escape\n".write(toFile: dir + "/s", atomically: true, encoding: .utf8)
        let run = try runKiosk(["--headless", "--script", dir + "/s"])
        #expect(run.status == 2)
        #expect(run.stderr.contains(dir + "/s:2"))
    }

    @Test func withoutADisplayItSuggestsHeadless() throws {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        env["SDL_VIDEODRIVER"] = "x11"
        let run = try runKiosk(["--exit-after", "first-frame"], environment: env)
        #expect(run.status == 2)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("--headless"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
                   "needs DejaVu Sans, a font without Chinese"))
    func aFontWithoutChineseIsAClearError() throws {
        let latin = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let run = try runKiosk(["--headless", "--font", latin, "--exit-after", "first-frame"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("跳"))
        let missing = try runKiosk(["--headless", "--font", "/no/such/font.ttf", "--exit-after", "first-frame"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/no/such/font.ttf"))
    }
}
