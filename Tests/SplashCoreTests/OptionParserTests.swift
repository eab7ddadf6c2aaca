import Foundation
import Testing
@testable import SplashCore

func parse(_ args: [String], config: [String: String] = [:], env: [String: String] = ["HOME": "/home/k"]) throws
    -> OptionParser.Parsed {
    try OptionParser.parse(args, environment: env, currentDirectory: "/work") { config[$0] }
}

func parseError(_ args: [String], config: [String: String] = [:]) -> OptionError? {
    do {
        _ = try parse(args, config: config)
        return nil
    } catch let e as OptionError {
        return e
    } catch {
        return nil
    }
}

@Suite struct OptionParserTests {
    @Test func defaultsFollowTheSpecification() throws {
        let p = try parse([])
        #expect(p.command == .run)
        let o = p.options
        #expect(o.countdown == 3)
        #expect(o.fit == .fit)
        #expect(o.background == .black)
        #expect(o.fallback == .image)
        #expect(o.syncInterval == 900)
        #expect(o.poetryRefresh == 300)
        #expect(o.feed == nil)
        #expect(o.dataDir == "/home/k/.local/state/splashboard")
        #expect(o.cacheDir == "/home/k/.cache/splashboard")
        #expect(o.rotate == .none)
        #expect(o.size == nil)
        #expect(!o.headless)
        #expect(o.effectiveLogFormat == .text)
        #expect(o.privateAddresses == .automatic)
    }

    @Test func privateAddressesAreAllowedRefusedOrLeftToTheFeed() throws {
        #expect(try parse(["--allow-private-addresses", "no"]).options.privateAddresses == .refused)
        #expect(try parse(["--allow-private-addresses=yes"]).options.privateAddresses == .allowed)
        #expect(try parse(["--config", "/c.conf"], config: ["/c.conf": "allow-private-addresses = no\n"])
            .options.privateAddresses == .refused)
        #expect(parseError(["--allow-private-addresses", "sometimes"])?.source == "--allow-private-addresses")
    }

    @Test func theServiceUsesTheFoldersSystemdGivesIt() throws {
        let p = try parse([], env: ["HOME": "/", "STATE_DIRECTORY": "/var/lib/splashboard",
                                    "CACHE_DIRECTORY": "/var/cache/splashboard"])
        #expect(p.options.dataDir == "/var/lib/splashboard")
        #expect(p.options.cacheDir == "/var/cache/splashboard")
        let shell = try parse([], env: ["HOME": "/var/lib/splashboard", "USER": "splashboard"])
        #expect(shell.options.dataDir == "/var/lib/splashboard")
        #expect(shell.options.cacheDir == "/var/cache/splashboard")
        // Root where the package is installed (its config file is there): `sudo splashboard
        // sync` means the service's folders; root elsewhere keeps its own.
        let installed = [DefaultPaths.systemConfig: "countdown = 3\n"]
        let root = try OptionParser.parse([], environment: ["HOME": "/root"], currentDirectory: "/", readFile: { installed[$0] },
                                          asRoot: true)
        #expect(root.options.dataDir == "/var/lib/splashboard" && root.options.cacheDir == "/var/cache/splashboard")
        let bare = try OptionParser.parse([], environment: ["HOME": "/root"], currentDirectory: "/", readFile: { _ in nil },
                                          asRoot: true)
        #expect(bare.options.dataDir == "/root/.local/state/splashboard")
    }

    @Test func everyOptionIsRead() throws {
        let o = try parse([
            "--feed", "https://cdn.example.test/feed.json", "--data-dir", "d", "--cache-dir=/c",
            "--countdown", "5", "--fit", "fill", "--background", "#1a2B3c", "--fallback", "skip",
            "--attract-after", "0", "--sync-interval", "60", "--poetry-url", "http://127.0.0.1:9/p.json",
            "--poetry-image-url", "http://127.0.0.1:9/p.jpg", "--poetry-refresh", "30", "--font", "/f.ttf",
            "--rotate", "270", "--size", "1080x1920", "--log-format", "json", "--headless",
            "--snapshot", "/tmp/s", "--exit-after", "detail", "--clock", "virtual", "--script", "s.txt",
            "--drm-mode", "1280x720@50", "--touch-output", "HDMI-A-2",
        ]).options
        #expect(o.touchOutput == "HDMI-A-2")
        #expect(o.drmMode == DisplayMode(size: Size(width: 1280, height: 720), refresh: 50))
        #expect(o.feed?.absoluteString == "https://cdn.example.test/feed.json")
        #expect(o.dataDir == "/work/d")
        #expect(o.cacheDir == "/c")
        #expect(o.countdown == 5)
        #expect(o.fit == .fill)
        #expect(o.background == RGBColor(red: 0x1A, green: 0x2B, blue: 0x3C))
        #expect(o.fallback == .skip)
        #expect(o.attractAfter == 0)
        #expect(o.syncInterval == 60)
        #expect(o.poetryURL?.port == 9)
        #expect(o.poetryRefresh == 30)
        #expect(o.font == "/f.ttf")
        #expect(o.rotate == .threeQuarters)
        #expect(o.size == Size(width: 1080, height: 1920))
        #expect(o.logFormat == .json)
        #expect(o.headless)
        #expect(o.snapshotDir == "/tmp/s")
        #expect(o.exitAfter == .detail)
        #expect(o.clock == .virtual)
        #expect(o.script == "/work/s.txt")
    }

    /// `--now`: a time with its offset, taken by `campaigns` and by a run on the virtual
    /// clock; refused where the real clock is read, or by a command that takes no time.
    @Test func nowIsADateForCampaignsAndTheVirtualClockOnly() throws {
        let at = try parse(["campaigns", "--now", "2026-12-24T10:00:00+08:00"]).options.now
        #expect(at == Date(timeIntervalSince1970: 1_798_077_600))
        #expect(try parse(["--clock", "virtual", "--now", "2026-12-24T02:00:00Z"]).options.now == at)
        #expect(parseError(["--now", "2026-12-24T10:00:00Z"])?.problem
                == "a run on the real clock reads the system's time; give --clock virtual with it")
        #expect(parseError(["sync", "--now", "2026-12-24T10:00:00Z"])?.problem
                == "only `campaigns` and a run with --clock virtual take a time")
        #expect(parseError(["campaigns", "--now", "2026-12-24T10:00:00"])?.problem
                == "the time has no offset: add Z for UTC or one like +08:00 (expected a date like 2026-12-24T10:00:00+08:00)")
        #expect(parseError(["campaigns", "--now", "Christmas"])?.problem
                == "expected a date like 2026-12-24T10:00:00+08:00, got \"Christmas\"")
    }

    @Test func aPlainPathIsAFileFeed() throws {
        let o = try parse(["--feed", "feeds/f.json"]).options
        #expect(o.feed == URL(fileURLWithPath: "/work/feeds/f.json"))
    }

    @Test(arguments: [
        (["--countdown", "0"], "--countdown"), (["--countdown", "31"], "--countdown"), (["--countdown", "x"], "--countdown"),
        (["--fit", "stretch"], "--fit"), (["--background", "red"], "--background"), (["--background", "#12345"], "--background"),
        (["--fallback", "none"], "--fallback"), (["--attract-after", "-1"], "--attract-after"),
        (["--rotate", "45"], "--rotate"), (["--drm-mode", "1920x1080@"], "--drm-mode"), (["--drm-mode", "hd"], "--drm-mode"),
        (["--touch-output", "HDMI A 2"], "--touch-output"),
        (["--size", "1280"], "--size"), (["--size", "0x0"], "--size"),
        (["--log-format", "xml"], "--log-format"), (["--exit-after", "later"], "--exit-after"),
        (["--clock", "fast"], "--clock"), (["--feed", "ftp://x/feed.json"], "--feed"), (["--feed", "http://"], "--feed"),
        (["--bogus"], "--bogus"), (["--countdown"], "--countdown"), (["--headless=maybe"], "--headless"),
        (["sideways"], "sideways"), (["--config", "/nope.conf"], "--config"),
    ])
    func badInputNamesTheOption(args: [String], source: String) {
        let error = parseError(args)
        #expect(error?.source == source)
        #expect(!(error?.problem.isEmpty ?? true))
    }

    @Test func helpAndVersion() throws {
        #expect(try parse(["--help"]).command == .help)
        #expect(try parse(["--countdown", "9", "--version"]).command == .version)
        #expect(OptionParser.usage.contains("--attract-after"))
    }

    @Test func configFileSetsOptionsAndTheCommandLineWins() throws {
        let conf = """
        # kiosk in the lobby
        countdown = 7
        fit=fill

        background = "#FFFFFF"
        headless = true
        """
        let o = try parse(["--config", "/k.conf", "--countdown", "4"], config: ["/k.conf": conf]).options
        #expect(o.countdown == 4)
        #expect(o.fit == .fill)
        #expect(o.background == .white)
        #expect(o.headless)
        #expect(o.configPath == "/k.conf")
    }

    @Test func aSettingGivenTwiceIsAWarningNamingBothPlaces() throws {
        let conf = "feed = /a.json\ncountdown = 4\nfeed = /b.json\nscreen-hours = 08:00-12:00\nscreen-hours = 13:00-20:00\n"
        let p = try parse(["--config", "/k.conf", "--fit", "fill", "--fit", "fit", "--size", "800x480", "--size", "480x800"],
                          config: ["/k.conf": conf])
        #expect(p.options.feed?.path == "/b.json")
        #expect(p.options.fit == .fit)
        #expect(p.warnings == [
            "/k.conf:3: feed is set again (first at /k.conf:1); only this later value is used",
            "/k.conf:5: screen-hours is set again (first at /k.conf:4); only this later value is used; to keep both, "
                + "list them in one value: screen-hours = 08:00-12:00,13:00-20:00",
            "--fit is given twice; only the later value is used",
        ])
        // One value each: nothing to say; the command line over the file is no repetition.
        #expect(try parse(["--config", "/k.conf", "--countdown", "5"], config: ["/k.conf": "countdown = 4\n"]).warnings.isEmpty)
    }

    @Test func withoutARuntimeFolderTheControlSocketGoesToTheDataFolder() throws {
        #expect(try parse([]).options.runtimeDir == "/home/k/.local/state/splashboard")
        #expect(try parse(["--data-dir", "/srv/k"]).options.runtimeDir == "/srv/k")
        #expect(try parse([], env: ["HOME": "/home/k", "XDG_RUNTIME_DIR": "/run/user/1000"]).options.runtimeDir
                == "/run/user/1000/splashboard")
        #expect(try parse(["--data-dir", "/srv/k"]).options.dataDirNamed)
        // The config file's data folder is the device's own: a trial on the virtual clock never takes it.
        #expect(try !parse([], config: [DefaultPaths.systemConfig: "data-dir = /srv/k\n"]).options.dataDirNamed)
        #expect(try !parse([]).options.dataDirNamed)
    }

    @Test func theSystemConfigIsReadWhenItExists() throws {
        let o = try parse([], config: [DefaultPaths.systemConfig: "countdown = 9\n"]).options
        #expect(o.countdown == 9)
    }

    @Test func aBadConfigLineNamesFileLineAndKey() {
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "countdown = 3\n\nfit = wide\n"])?.errorDescription
            == #"/k.conf:3: fit: expected fit or fill, got "wide""#)
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "countdown = 50\n"])?.errorDescription
            == #"/k.conf:1: countdown: expected a whole number from 1 to 30, got "50""#)
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "# c\njust words\n"])?.source == "/k.conf:2")
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "feed: x\n"])?.errorDescription
            == #"/k.conf:1: expected `key = value`, got "feed: x" (use `=`, not `:`)"#)
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "colour = #000000\n"])?.source == "/k.conf:1: colour")
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "config = /other\n"])?.source == "/k.conf:1: config")
    }

    /// Files as people save them: Windows line endings, a byte order mark, comments after values.
    @Test func configFilesAsPeopleWriteThem() throws {
        let crlf = "# my kiosk\r\nfeed = https://cdn.example.test/feed.json\r\ncountdown = 5\r\n"
        let o = try parse(["--config", "/k.conf"], config: ["/k.conf": crlf]).options
        #expect(o.feed?.absoluteString == "https://cdn.example.test/feed.json" && o.countdown == 5)
        let bom = "\u{FEFF}countdown = 7\rfit = fill\r"
        let b = try parse(["--config", "/k.conf"], config: ["/k.conf": bom]).options
        #expect(b.countdown == 7 && b.fit == .fill)
        let commented = "feed = https://cdn.example.test/feed.json  # my feed\ncountdown = 4\t# seconds\n"
            + "poetry-url = https://poems.example.test/p.json#top\nbackground = #102030 # dark\nfit = \"fill\"  # crop\n"
        let c = try parse(["--config", "/k.conf"], config: ["/k.conf": commented]).options
        #expect(c.feed?.absoluteString == "https://cdn.example.test/feed.json" && c.countdown == 4)
        #expect(c.poetryURL?.absoluteString == "https://poems.example.test/p.json#top")
        #expect(c.background == RGBColor(red: 0x10, green: 0x20, blue: 0x30) && c.fit == .fill)
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "feed = \"https://x.test/a\n"])?.errorDescription
            == "/k.conf:1: feed: the value's closing quote \" is missing")
    }

    @Test func aFileInAnotherEncodingIsNamedNotReadWrong() throws {
        #expect(throws: OptionError(source: "/k.conf:3", problem: "the file is not UTF-8 text (byte 0xE9 cannot be read); save it as UTF-8")) {
            try ConfigFile.text(Data([0x61, 0x0A, 0x62, 0x0A, 0x63, 0x61, 0x66, 0xE9, 0x0A]), path: "/k.conf")
        }
        #expect(try ConfigFile.text(Data("咏柳 = 1\n".utf8), path: "/k.conf") == "咏柳 = 1\n")
    }

    @Test func aMistypedNameSuggestsTheNearestKnownOne() {
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "contdown = 5\n"])?.errorDescription
            == "/k.conf:1: contdown: unknown setting; did you mean countdown?")
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "Sync-Interval = 60\n"])?.errorDescription
            == "/k.conf:1: Sync-Interval: unknown setting; did you mean sync-interval?")
        #expect(parseError(["--atract-after", "5"])?.errorDescription == "--atract-after: unknown option; did you mean --attract-after?")
        #expect(parseError(["--zzz"])?.errorDescription == "--zzz: unknown option (see --help)")
        #expect(parseError(["campains"])?.errorDescription?.hasPrefix("campains: unknown command (did you mean campaigns?)") == true)
        #expect(NearestName.suggestion(for: "linkURL", among: FeedDocument.campaignFields) == "linkUrl")
        #expect(NearestName.suggestion(for: "picURL", among: FeedDocument.campaignFields) == "picUrl")
        #expect(NearestName.suggestion(for: "colour", among: FeedDocument.campaignFields) == nil)
    }

    @Test func aMissingValueSaysWhich() {
        #expect(parseError(["campaigns", "--thumbnails", "--data-dir", "/d"])?.errorDescription
            == "--thumbnails: needs a value: DIR, got the option --data-dir")
        #expect(parseError(["--feed"])?.errorDescription == "--feed: needs a value: URL")
        #expect(parseError(["screenshot"])?.errorDescription == "screenshot: needs a file to write: splashboard screenshot FILE.png")
        #expect(parseError(["feed", "check"])?.source == "feed check")
        #expect(parseError(["preview", "f.json"])?.errorDescription == "preview: needs --out DIR: the folder the pictures are written to")
    }

    @Test func aWebAddressWithoutItsSchemeIsNotTakenForAFile() throws {
        #expect(parseError(["--feed", "cdn.example.test/kiosk/feed.json"])?.errorDescription
            == #"--feed: "cdn.example.test/kiosk/feed.json" looks like a web address without its scheme: write https://cdn.example.test/kiosk/feed.json or http://cdn.example.test/kiosk/feed.json (or ./cdn.example.test/kiosk/feed.json for a file in this folder)"#)
        #expect(parseError(["--config", "/k.conf"], config: ["/k.conf": "feed = 127.0.0.1:8080/feed.json\n"])?.source == "/k.conf:1: feed")
        #expect(parseError(["--feed", "localhost:8080/feed.json"]) != nil)
        #expect(parseError(["--feed", "10.0.0.7/feed.json"]) != nil)
        // Paths stay paths.
        #expect(try parse(["--feed", "feeds/feed.json"]).options.feed == URL(fileURLWithPath: "/work/feeds/feed.json"))
        #expect(try parse(["--feed", "./cdn.example.test/feed.json"]).options.feed?.isFileURL == true)
        #expect(try parse(["--feed", "feed.json"]).options.feed == URL(fileURLWithPath: "/work/feed.json"))
        #expect(try parse(["--feed", "./feed.json"]).options.feed?.absoluteString == "file:///work/feed.json")
        #expect(try parse(["--feed", "feeds/./a//feed.json"]).options.feed?.path == "/work/feeds/a/feed.json")
        #expect(try parse(["--feed", "../feed.json"]).options.feed?.path == "/work/../feed.json")
        #expect(try parse(["--feed", "feeds.v2/feed.json"]).options.feed?.isFileURL == true)
        #expect(try parse(["--feed", "backup.json/feed.json"]).options.feed?.isFileURL == true)
    }

    @Test func theFeedToolsAreCommands() throws {
        #expect(try parse(["feed", "check", "f.json", "--json"]).command
            == .feedCheck(feed: URL(fileURLWithPath: "/work/f.json"), json: true))
        #expect(try parse(["preview", "https://cdn.example.test/feed.json", "--size", "800x480", "--size", "480x800",
                           "--out", "shots"]).command
            == .preview(feed: URL(string: "https://cdn.example.test/feed.json")!,
                        sizes: [Size(width: 800, height: 480), Size(width: 480, height: 800)], out: "/work/shots"))
        #expect(try parse(["preview", "f.json", "--out", "/o"]).command
            == .preview(feed: URL(fileURLWithPath: "/work/f.json"), sizes: OptionParser.previewSizes, out: "/o"))
    }
}

@Suite struct ScriptTests {
    @Test func stepsAreParsedAndSorted() throws {
        let steps = try ScriptStep.parse("""
        # a visitor
        2.5 key escape
        0.5 tap skip
        1 tap 100 200
        3 key f
        """, path: "s")
        #expect(steps == [
            ScriptStep(time: 0.5, action: .tapSkip), ScriptStep(time: 1, action: .tap(Point(x: 100, y: 200))),
            ScriptStep(time: 2.5, action: .key(.escape)), ScriptStep(time: 3, action: .key(.other)),
        ])
    }

    @Test func aBadLineNamesItsLine() {
        #expect(throws: OptionError.self) { try ScriptStep.parse("1 tap\n", path: "s") }
        do {
            _ = try ScriptStep.parse("0 key escape\nsoon tap skip\n", path: "s")
        } catch let e as OptionError {
            #expect(e.source == "s:2")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

/// `--help`, the man page and the shipped config file are made from, or held to, one table.
@Suite struct OptionTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theManPagesOptionsAreTheTables() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("packaging/splashboard.1"), encoding: .utf8)
        let start = try #require(page.range(of: ".SH OPTIONS\n"))
        let rest = page[start.upperBound...]
        let intro = try #require(rest.range(of: ".TP\n"))
        let end = try #require(rest.range(of: "\n.SH CONFIG FILE"))
        let section = String(rest[intro.lowerBound..<end.lowerBound])
        #expect(section == OptionParser.manPageOptions, "packaging/splashboard.1, .SH OPTIONS, should read:\n\(OptionParser.manPageOptions)")
        // The commands, the operator view's gestures and the environment are in it too.
        for needle in ["feed check", "preview", "status", "screenshot", "\\-\\-thumbnails", ".SH OPERATOR VIEW", "F2",
                       ".SH ENVIRONMENT", "SPLASHBOARD_ASSETS", "SPLASHBOARD_NET", ".SH DIAGNOSTICS"] {
            #expect(page.contains(needle), "the man page lacks \(needle)")
        }
    }

    @Test func everyOptionIsInHelpAndEverySettingInTheConfigFile() throws {
        let conf = try String(contentsOf: Self.root.appendingPathComponent("packaging/splashboard.conf"), encoding: .utf8)
        for spec in OptionParser.table {
            #expect(OptionParser.usage.contains("--\(spec.name)" + (spec.takesValue ? " \(spec.valueHint)" : "")))
            guard spec.group == .kiosk else { continue }
            let line = conf.split(separator: "\n").first { $0.hasPrefix("# \(spec.name) = ") }
            #expect(line != nil, "splashboard.conf has no `# \(spec.name) = …` line")
            // A default that is one value is the one the file shows.
            if let d = spec.defaultText, !d.contains(" "), d != "off", let line {
                #expect(line == "# \(spec.name) = \(d)", "splashboard.conf: \(line) (default \(d))")
            }
            // And the shipped file, uncommented, is a valid config.
            if let line {
                let setting = String(line.dropFirst(2))
                #expect(throws: Never.self, "\(setting)") {
                    _ = try OptionParser.parse(["--config", "/c"], environment: ["HOME": "/h"], currentDirectory: "/") { _ in setting + "\n" }
                }
            }
        }
    }
}

/// The reducer's settings come from the options, every one of them, with nothing assumed.
@Suite struct KioskSettingsFromOptionsTests {
    @Test func everySettingIsTheOptionsOwn() throws {
        let options = try parse(["--countdown", "7", "--fallback", "skip", "--attract-after", "0", "--sync-interval", "120",
                                 "--poetry-refresh", "600", "--pick", "rotate", "--exit-after", "30",
                                 "--report-url", "http://127.0.0.1:4318/v1/logs", "--wake-on-touch", "45",
                                 "--screen-hours", "07:30-22:00"]).options
        let shanghai = try #require(Zone(identifier: "Asia/Shanghai"))
        let settings = KioskSettings(options: options, defaultImage: "/assets/d.jpg", timeZone: shanghai, screenLeftDark: true,
                                     syncSeed: 42)
        #expect(settings.countdown == 7 && settings.fallback == .skip && settings.attractAfter == 0)
        #expect(settings.syncInterval == 120 && settings.poetryRefresh == 600)
        #expect(settings.pick == .rotate && settings.timeZone == shanghai && settings.defaultImage == "/assets/d.jpg")
        #expect(settings.exitAfter == options.exitAfter && settings.exitAfter != nil)
        #expect(settings.reportsShows && settings.wakeOnTouch == 45 && settings.screenSchedule == options.screenSchedule)
        #expect(settings.screenLeftDark && settings.syncSeed == 42)
        // Without them: the options' defaults, not the settings' own.
        let plain = KioskSettings(options: try parse([]).options, defaultImage: "/d.jpg", timeZone: .gmt, screenLeftDark: false,
                                  syncSeed: 1)
        #expect(plain.pick == .newest && !plain.reportsShows && plain.exitAfter == nil && plain.countdown == 3)
    }
}
