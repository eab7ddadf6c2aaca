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
