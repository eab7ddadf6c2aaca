import Foundation
import SplashCore
import SplashTestSupport
import Testing

/// One feed for a fleet: three kiosks, each a real process with its own data, in a group of
/// its own, synced from one feed served on 127.0.0.1. Each shows only the campaigns for it,
/// fetches only their pictures, says why the others are not for it, and the group with a
/// screen schedule of its own follows it.
@Suite struct DeviceGroupsTests {
    @Test func oneFeedDrivesThreeKiosksEachWithItsOwnCampaignsAndSchedule() throws {
        let folder = try temporaryFolder()
        let www = folder + "/www"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let server = try TestServer(root: www)
        for (name, color) in [("lobby", red), ("cafe", green), ("all", blue), ("screen", RGBColor(red: 200, green: 200, blue: 0))] {
            try writeImage(www + "/\(name).png", width: 640, height: 360, bands: [color])
        }
        try #"""
        {"groups": {"cafe": {"screen": {"hours": ["08:00-09:00"]}}},
         "campaigns": [
          {"id": "lobby-offer", "picUrl": "lobby.png", "showTime": 50, "groups": ["lobby"], "updatedAt": "2026-11-04"},
          {"id": "cafe-menu", "picUrl": "cafe.png", "showTime": 50, "groups": ["cafe", "terrace"], "updatedAt": "2026-11-03"},
          {"id": "for-everyone", "picUrl": "all.png", "showTime": 50, "updatedAt": "2026-11-01"},
          {"id": "one-screen", "picUrl": "screen.png", "showTime": 50, "groups": ["kiosk-e"], "updatedAt": "2026-11-02"}]}
        """#.write(toFile: www + "/feed.json", atomically: true, encoding: .utf8)
        let feed = server.url("/files/feed.json").absoluteString
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        // kiosk-e is in the group "entrance" and is targeted by its id alone.
        let kiosks = [("kiosk-l", "lobby"), ("kiosk-c", "cafe"), ("kiosk-e", "entrance")]
        let shown = ["kiosk-l": ["lobby-offer", "for-everyone"], "kiosk-c": ["cafe-menu", "for-everyone"],
                     "kiosk-e": ["one-screen", "for-everyone"]]
        func args(_ id: String, _ group: String) -> [String] {
            ["--feed", feed, "--data-dir", folder + "/\(id)/data", "--cache-dir", folder + "/\(id)/cache",
             "--device-id", id, "--device-groups", group, "--metrics-file", "off"]
        }
        for (id, group) in kiosks {
            #expect(try runKiosk(["sync"] + args(id, group), environment: environment).status == 0)
        }
        // Each picture was asked for by the kiosks it is for alone.
        let counts = try server.requestCounts()
        #expect(counts["/files/lobby.png"] == 1 && counts["/files/cafe.png"] == 1 && counts["/files/screen.png"] == 1, "\(counts)")
        #expect(counts["/files/all.png"] == 3, "\(counts)")
        for (id, group) in kiosks {
            let args = args(id, group)
            let listed = try runKiosk(["campaigns", "--json"] + args, environment: environment)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let eligible = rows.filter { $0["eligible"] as? Bool == true }.compactMap { $0["id"] as? String }.sorted()
            #expect(eligible == shown[id]!.sorted(), "\(id): \(eligible)")
            // Why the others are not shown here, in words that name both sides.
            for row in rows where !(shown[id]!.contains(row["id"] as? String ?? "")) {
                let reason = row["reason"] as? String ?? ""
                #expect(reason.hasPrefix("for the groups ") && reason.hasSuffix("this screen is in: \(group), \(id)"), "\(id): \(reason)")
            }
            // Only its own campaigns' pictures were fetched: the cache holds two.
            let cached = try FileManager.default.contentsOfDirectory(atPath: folder + "/\(id)/cache").filter { !$0.hasPrefix(".") }
            #expect(cached.count == 2, "\(id): \(cached)")
            // A run: its splash is one of its own, and the cafe's own schedule keeps its screen dark at noon.
            let run = try runKiosk(["--headless", "--clock", "virtual", "--now", "2030-06-01T12:00:30Z",
                                    "--exit-after", group == "cafe" ? "3" : "first-frame", "--countdown", "1"] + args,
                                   environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            let power = run.events(named: "screen").first
            if group == "cafe" {
                // Dark from the start until its group's hours begin: 08:00 the next day.
                #expect(power?["state"] as? String == "off" && power?["until"] as? String == "2030-06-02T08:00:00Z",
                        "\(String(describing: power))")
                #expect(run.events(named: "splash").isEmpty)
            } else {
                #expect(power?["state"] as? String == "on", "\(id): \(run.names)")
                let splash = try #require(run.events(named: "splash").first?["campaign"] as? String)
                #expect(shown[id]!.contains(splash), "\(id) showed \(splash)")
            }
        }

        // The running lobby kiosk's status says which groups it is in and why the others are not shown.
        var running = environment
        running["XDG_RUNTIME_DIR"] = folder + "/run"
        let kiosk = Process()
        kiosk.executableURL = URL(fileURLWithPath: Binary.path)
        kiosk.arguments = ["--headless", "--countdown", "30", "--exit-after", "20"] + args("kiosk-l", "lobby")
        kiosk.environment = running
        kiosk.standardOutput = FileHandle.nullDevice
        kiosk.standardError = FileHandle.nullDevice
        try kiosk.run()
        defer { if kiosk.isRunning { kill(kiosk.processIdentifier, SIGKILL) }; kiosk.waitUntilExit() }
        #expect(waitUntilListening(folder + "/run/splashboard/control.sock"), "the kiosk never listened")
        let status = try runKiosk(["status", "--json"], environment: running)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any], "\(status.stderr)")
        #expect(object["groups"] as? [String] == ["lobby", "kiosk-l"])
        let others = object["other_screens"] as? [String] ?? []
        #expect(others.contains("cafe-menu: for the groups cafe, terrace; this screen is in: lobby, kiosk-l"), "\(others)")
        #expect(others.count == 2, "\(others)")
        // Another group's picture is never fetched here: not a problem this screen can mend.
        #expect((object["picture_problems"] as? [String])?.isEmpty == true, "\(String(describing: object["picture_problems"]))")
        let text = try runKiosk(["status"], environment: running)
        #expect(text.stdout.contains("groups: lobby, kiosk-l") && text.stdout.contains("not for this screen: one-screen: for the groups kiosk-e"),
                "\(text.stdout)")
    }

    /// The README's fleet example, read from the README itself and run on real kiosks: with
    /// `pick = rotate` each screen shows every campaign meant for it, in turn; with the default
    /// `pick = newest` the lobby shows its group's own campaign before the newer all-screens one.
    @Test func theReadmesFleetExampleShowsWhatItSays() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "### Groups: one feed, many kinds of screen"))
        let rest = readme[section.upperBound...]
        let start = try #require(rest.range(of: "```json\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let json = String(rest[start.upperBound..<end.lowerBound])
        let folder = try temporaryFolder()
        let www = folder + "/www"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let server = try TestServer(root: www)
        try json.write(toFile: www + "/feed.json", atomically: true, encoding: .utf8)
        for (index, name) in ["tea.jpg", "books.jpg", "welcome.jpg", "door.jpg"].enumerated() {
            #expect(json.contains("\"\(name)\""), "the README's example no longer names \(name)")
            try writeImage(www + "/" + name, width: 640, height: 360, bands: [[red, green, blue, RGBColor(red: 200, green: 200, blue: 0)][index]])
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        func shown(_ id: String, _ group: String, pick: String) throws -> [String] {
            let args = ["--feed", server.url("/files/feed.json").absoluteString, "--data-dir", folder + "/\(id)-\(pick)/data",
                        "--cache-dir", folder + "/\(id)-\(pick)/cache", "--device-id", id, "--device-groups", group,
                        "--metrics-file", "off"]
            #expect(try runKiosk(["sync"] + args, environment: environment).status == 0)
            // Ten minutes at the café's hours: a splash every 33 s (3 s countdown, 30 s idle).
            let run = try runKiosk(["--headless", "--clock", "virtual", "--now", "2030-06-03T10:00:00Z", "--exit-after", "600",
                                    "--attract-after", "30", "--pick", pick] + args, environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            return run.events(named: "splash").compactMap { $0["campaign"] as? String }
        }
        let expected: [(String, String, Set<String>)] = [
            ("kiosk-cafe-1", "cafe", ["spring-tea", "welcome"]), ("kiosk-lobby-1", "lobby", ["reading-week", "welcome"]),
            ("kiosk-door-3", "entrance", ["reading-week", "welcome", "door-3-only"]),
        ]
        for (id, group, campaigns) in expected {
            let splashes = try shown(id, group, pick: "rotate")
            #expect(splashes.count >= 10 && Set(splashes) == campaigns, "\(group): \(splashes)")
        }
        let lobby = try shown("kiosk-lobby-1", "lobby", pick: "newest")
        #expect(!lobby.isEmpty && Set(lobby) == ["reading-week"], "\(lobby)")
    }

    /// Checking a fleet's feed from one shell: `feed check --device-groups` says what a device
    /// in a group would show and fetches only that; `--groups-known` catches a group no screen
    /// is in; `preview --device-groups` draws only that group's campaigns, without it every one.
    @Test func feedCheckAndPreviewTakeTheDevicesPointOfView() throws {
        let folder = try temporaryFolder()
        for name in ["tea", "books", "welcome", "typo"] {
            try writeImage(folder + "/\(name).png", width: 320, height: 180, bands: [red])
        }
        let feed = try writeFeed(folder, #"""
        {"groups": {"cafe": {"screen": {"hours": ["07:00-15:00"]}}, "lobbby": {"screen": {"hours": ["09:00-17:00"]}}},
         "campaigns": [
          {"id": "spring-tea", "picUrl": "tea.png", "showTime": 5, "groups": ["cafe"]},
          {"id": "reading-week", "picUrl": "books.png", "showTime": 5, "groups": ["lobby", "entrance"]},
          {"id": "welcome", "picUrl": "welcome.png", "showTime": 5},
          {"id": "typo", "picUrl": "typo.png", "showTime": 5, "groups": ["lobyy"]}]}
        """#)
        let check = try runKiosk(["feed", "check", feed, "--device-groups", "lobby", "--groups-known", "lobby,cafe,entrance"])
        #expect(check.status == 1, "\(check.stdout)")
        for line in ["campaigns[3].groups: names \"lobyy\", which --groups-known does not list",
                     "groups.lobbby: a screen schedule for a group --groups-known does not list: no screen follows it",
                     "campaigns[0] (spring-tea): not shown on a device in lobby: for the groups cafe",
                     "4 campaigns would apply (2 of them for this device), 2 pictures checked; 2 problems"] {
            #expect(check.stdout.contains(line), "\(line) not in \(check.stdout)")
        }
        // Without the fleet's list, the same feed is clean for a café screen.
        let cafe = try runKiosk(["feed", "check", feed, "--device-groups", "cafe", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(cafe.stdout.utf8)) as? [String: Any])
        #expect(report["forDevice"] as? [String] == ["spring-tea", "welcome"] && cafe.status == 0, "\(cafe.stdout)")
        // A device group the feed never names: a typo, with the nearest name the feed uses.
        let typo = try runKiosk(["feed", "check", feed, "--device-groups", "entrnce"])
        #expect(typo.status == 1 && typo.stdout.contains(
            "device-groups: entrnce: no campaign and no schedule of the feed names this group; did you mean entrance?"), "\(typo.stdout)")
        // --groups-known belongs to feed check.
        #expect(try runKiosk(["campaigns", "--groups-known", "lobby"]).stderr.contains("only `splashboard feed check` takes --groups-known"))

        let every = try runKiosk(["preview", feed, "--size", "320x240", "--out", folder + "/every"])
        #expect(every.status == 0 && every.stdout.contains("4 campaigns at 1 size"), "\(every.stdout)\(every.stderr)")
        let lobby = try runKiosk(["preview", feed, "--size", "320x240", "--device-groups", "lobby", "--out", folder + "/lobby"])
        // The device previewed is the groups named, not this machine (whose id would be a group too).
        #expect(lobby.status == 0 && lobby.stdout.contains("spring-tea: not previewed: for the groups cafe; this screen is in: lobby\n"),
                "\(lobby.stdout)")
        // A campaign for one device id, previewed as that device.
        let one = try runKiosk(["preview", feed, "--size", "320x240", "--device-groups", "entrance", "--device-id", "lobyy",
                                "--out", folder + "/one"])
        #expect(one.status == 0 && one.stdout.contains("3 of 4 campaigns at 1 size"), "\(one.stdout)\(one.stderr)")
        let drawn = try FileManager.default.contentsOfDirectory(atPath: folder + "/lobby").filter { $0.hasSuffix("-splash.png") }.sorted()
        #expect(drawn.count == 2 && drawn.allSatisfy { $0.contains("reading-week") || $0.contains("welcome") }, "\(drawn)")
    }

    /// A kiosk moved to another group follows that group's schedule at its next sync, though
    /// the feed has not changed (it is read in full, not answered 304).
    @Test func aKioskMovedToAnotherGroupFollowsItsSchedule() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.png", width: 320, height: 180, bands: [red])
        let feed = try writeFeed(folder, #"""
        {"groups": {"cafe": {"screen": {"hours": ["08:00-09:00"]}}},
         "campaigns": [{"id": "a", "picUrl": "a.png", "showTime": 50}]}
        """#)
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        let base = ["--feed", feed, "--data-dir", folder + "/data", "--cache-dir", folder + "/cache", "--device-id", "k",
                    "--metrics-file", "off"]
        func firstPower(_ group: String) throws -> String? {
            #expect(try runKiosk(["sync", "--device-groups", group] + base, environment: environment).status == 0)
            let run = try runKiosk(["--headless", "--clock", "virtual", "--now", "2030-06-01T12:00:30Z", "--exit-after", "2",
                                    "--device-groups", group] + base, environment: environment)
            return run.events(named: "screen").first?["state"] as? String
        }
        #expect(try firstPower("cafe") == "off")
        #expect(try firstPower("lobby") == "on")
        #expect(try firstPower("cafe") == "off")
    }

    /// `device-groups` is checked where it is read: a name that is not one says so.
    @Test func aWrongGroupNameIsRefusedWithWhatIsWrong() throws {
        let run = try runKiosk(["campaigns", "--device-groups", "lobby, two words"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--device-groups: expected names separated by commas") && run.stderr.contains("\"two words\""),
                "\(run.stderr)")
    }
}
