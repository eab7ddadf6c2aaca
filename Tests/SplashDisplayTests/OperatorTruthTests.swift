import Foundation
import Glibc
import SplashCore
import SplashTestSupport
import Testing

/// What the screen shows follows what the operator changed, in a real kiosk process beside
/// a real HTTP server: a sync run by hand, `cache clear`; and a show is counted only for a
/// splash that reached the screen.
@Suite struct OperatorTruthTests {
    /// A headless kiosk on the real clock, its events written to a file as they come.
    final class Kiosk {
        let process = Process()
        let log: String
        let environment: [String: String]

        init(folder: String, arguments: [String]) throws {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_RUNTIME_DIR"] = folder + "/run"
            self.environment = environment
            log = folder + "/events.jsonl"
            FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["--headless", "--log-format", "json"] + arguments
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        var events: [[String: Any]] {
            KioskRun(status: 0, stdout: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "", stderr: "").events
        }

        /// The campaigns of the splashes shown (nil: the default picture), in order.
        var splashes: [String?] {
            events.filter { $0["event"] as? String == "splash" }.map { $0["campaign"] as? String }
        }

        /// Waits (at most `seconds`) until `done` holds for the splashes shown.
        func wait(_ seconds: Double = 30, until done: ([String?]) -> Bool) -> Bool {
            eventually(within: seconds) { done(splashes) }
        }

        func command(_ arguments: [String]) throws -> KioskRun { try runKiosk(arguments, environment: environment) }

        /// Stops it as a power cut would (what it counted is in the ledger before each frame).
        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    @Test func aRunningKioskFollowsAHandRunSyncAndACacheClearAndCountsOnlyWhatItShowed() throws {
        let folder = try temporaryFolder()
        let www = folder + "/www"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let server = try TestServer(root: www)
        for (name, colour) in [("a", red), ("b", blue), ("c", green)] {
            try writeImage("\(www)/\(name).png", width: 320, height: 180, bands: [colour])
        }
        func publish(_ ids: [(String, Int)]) throws {
            let campaigns = ids.map { #"{"id": "\#($0.0)", "picUrl": "\#($0.0).png", "showTime": 1000, "priority": \#($0.1)}"# }
            try #"{"campaigns": [\#(campaigns.joined(separator: ", "))]}"#.write(toFile: www + "/feed.json", atomically: true,
                                                                               encoding: .utf8)
        }
        let device = ["--feed", server.url("/files/feed.json").absoluteString,
                      "--data-dir", folder + "/data", "--cache-dir", folder + "/cache"]
        try publish([("a", 0), ("b", 0)])
        let kiosk = try Kiosk(folder: folder, arguments: device + ["--countdown", "1", "--attract-after", "1", "--pick", "rotate"])
        defer { kiosk.stop() }
        #expect(kiosk.wait { $0.contains("a") && $0.contains("b") }, "\(kiosk.splashes)")

        // By hand: "a" leaves the feed, "c" comes first. The kiosk's own next sync is 15 min away.
        try publish([("b", 0), ("c", 5)])
        let sync = try kiosk.command(["sync"] + device)
        #expect(sync.status == 0, "\(sync.stderr)")
        let synced = kiosk.splashes.count
        #expect(kiosk.wait { $0.count >= synced + 4 }, "\(kiosk.splashes)")
        // At most the splash on the screen while the sync ran was chosen from the old feed.
        let after = Array(kiosk.splashes.dropFirst(synced + 1))
        #expect(!after.contains("a"), "\(kiosk.splashes)")
        #expect(after.first == "c", "\(kiosk.splashes)")

        // `cache clear` under it: said, and the pictures come back through the kiosk's own sync.
        // The events are counted before the command: the kiosk may start its sync before the
        // command has returned.
        let eventsAt = kiosk.events.count
        let cleared = try kiosk.command(["cache", "clear"] + device)
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(cleared.stdout.contains("the running kiosk takes this before its next splash"), "\(cleared.stdout)")
        let clearedAt = kiosk.splashes.count
        #expect(kiosk.wait { $0.dropFirst(clearedAt + 1).contains("c") }, "the pictures never came back: \(kiosk.splashes)")
        // They came back through a sync the kiosk started at once, not its next one (15 min away).
        #expect(kiosk.events.dropFirst(eventsAt).contains { $0["event"] as? String == "sync" }, "no sync after the clear")
        kiosk.stop()

        // Every show in the ledger reached the screen: one `splash` event each.
        let shown = Dictionary(grouping: kiosk.splashes.compactMap { $0 }, by: { $0 }).mapValues(\.count)
        let listed = try runKiosk(["campaigns", "--json"] + device)
        let rows = (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]) ?? []
        for id in ["b", "c"] {
            #expect(rows.first { $0["id"] as? String == id }?["shows"] as? Int == shown[id] ?? 0,
                    "\(id): \(listed.stdout) against \(shown)")
        }
    }

    @Test func aPictureReplacedOnItsServerReachesTheRunningKiosksScreenAfterASyncByHand() throws {
        let folder = try temporaryFolder()
        let www = folder + "/www"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let server = try TestServer(root: www)
        try writeImage(www + "/a.png", width: 320, height: 180, bands: [red])
        try #"[{"id": "a", "picUrl": "a.png", "showTime": 1000}]"#.write(toFile: www + "/feed.json", atomically: true,
                                                                       encoding: .utf8)
        let device = ["--feed", server.url("/files/feed.json").absoluteString,
                      "--data-dir", folder + "/data", "--cache-dir", folder + "/cache"]
        let shots = folder + "/shots"
        let kiosk = try Kiosk(folder: folder, arguments: device + ["--countdown", "1", "--attract-after", "1",
                                                                   "--snapshot", shots])
        defer { kiosk.stop() }
        #expect(kiosk.wait { $0.filter { $0 == "a" }.count >= 2 }, "\(kiosk.splashes)")
        func centres(_ paths: ArraySlice<String>) -> [RGBColor] {
            paths.compactMap { path in (try? Snapshot(path)).map { $0.color($0.width / 2, $0.height / 2) } }
        }
        #expect(centres(snapshots(shots)[...]).contains { $0.isClose(to: red, tolerance: 24) })

        // This week's picture, under the same address; the sync run by hand asks for it again.
        try writeImage(www + "/a.png", width: 320, height: 180, bands: [blue])
        let sync = try kiosk.command(["sync"] + device)
        #expect(sync.status == 0, "\(sync.stderr)")
        // The feed is the same; the summary says which file was new.
        #expect(sync.stdout.contains("not modified;") && sync.stdout.contains("changed on its server and fetched again: http://"),
                "\(sync.stdout)")
        let synced = kiosk.splashes.count
        let drawn = snapshots(shots).count
        #expect(kiosk.wait { $0.count >= synced + 3 }, "\(kiosk.splashes)")
        let after = centres(snapshots(shots).dropFirst(drawn + 2))
        #expect(after.contains { $0.isClose(to: blue, tolerance: 24) }, "\(after)")
        #expect(!after.suffix(3).contains { $0.isClose(to: red, tolerance: 24) }, "\(after)")
    }
}

/// A trial on the virtual clock with the kiosk's own config file never uses up its shows:
/// the config's data folder is left as it was, the run says where it worked in one line, and
/// that scratch folder is gone when it ends (kept with --keep-scratch).
@Suite struct VirtualTrialTests {
    @Test func aVirtualRunWithTheKiosksConfigLeavesItsLedgerAlone() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.png", width: 320, height: 180, bands: [red])
        try #"[{"id": "a", "picUrl": "a.png", "showTime": 100}]"#.write(toFile: folder + "/feed.json", atomically: true, encoding: .utf8)
        try """
        feed = \(folder)/feed.json
        data-dir = \(folder)/data
        cache-dir = \(folder)/cache
        metrics-file = off
        """.write(toFile: folder + "/kiosk.conf", atomically: true, encoding: .utf8)
        let config = ["--config", folder + "/kiosk.conf"]
        #expect(try runKiosk(["sync"] + config).status == 0)
        func remaining() throws -> Int? {
            let listed = try runKiosk(["campaigns", "--json"] + config)
            let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
            return rows?.first?["remaining"] as? Int
        }
        #expect(try remaining() == 100)
        for keep in [false, true] {
            let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "300", "--attract-after", "30"]
                                   + config + (keep ? ["--keep-scratch"] : []))
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.events(named: "splash").filter { $0["campaign"] as? String == "a" }.count >= 5, "\(run.stdout)")
            let notes = run.stderr.split(separator: "\n").filter { $0.contains("virtual clock:") }
            #expect(notes.count == 1, "\(run.stderr)")
            let scratch = try #require(notes.first?.split(separator: " ").first { $0.hasPrefix("/") }.map { String($0.dropLast()) })
            #expect(scratch.contains("splashboard-virtual-"), "\(scratch)")
            #expect(FileManager.default.fileExists(atPath: scratch) == keep, "\(scratch) kept: \(keep)")
            if keep { try? FileManager.default.removeItem(atPath: scratch) }
        }
        // Named on the command line as well, the config's data folder is still the device's.
        let named = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "splash", "--data-dir", folder + "/data/."] + config)
        #expect(named.stderr.contains("never writes in the device's data folder \(folder)/data ("), "\(named.stderr)")
        #expect(try remaining() == 100)
    }

    /// `--data-dir` on the command line: a trial's own folder (new, only synced, or marked by a
    /// trial) keeps the trial's shows for the next trial; a folder with a kiosk's shows is left alone.
    @Test func aVirtualRunNamingAKiosksDataFolderLeavesItsLedgerAlone() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.png", width: 320, height: 180, bands: [red])
        try #"[{"id": "a", "picUrl": "a.png", "showTime": 100}]"#.write(toFile: folder + "/feed.json", atomically: true, encoding: .utf8)
        func kiosk(_ data: String) -> [String] {
            ["--feed", folder + "/feed.json", "--data-dir", folder + "/" + data, "--cache-dir", folder + "/cache-" + data,
             "--metrics-file", "off"]
        }
        func shows(_ data: String) throws -> Int? {
            let listed = try runKiosk(["campaigns", "--json"] + kiosk(data))
            let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
            return rows?.first?["shows"] as? Int
        }
        let trial = ["--headless", "--clock", "virtual", "--exit-after", "splash"]
        // A new folder is the trial's: its shows stay there for the next trial, which says nothing.
        for expected in [1, 2] {
            let run = try runKiosk(trial + kiosk("trial"))
            #expect(run.status == 0 && !run.stderr.contains("virtual clock:"), "\(run.stderr)")
            #expect(try shows("trial") == expected)
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/trial/trial"))
        // A kiosk's folder: shows on the real clock, then a trial that names it works elsewhere.
        let real = try runKiosk(["--headless", "--countdown", "1", "--exit-after", "splash"] + kiosk("device"))
        #expect(real.status == 0, "\(real.stderr)")
        #expect(try shows("device") == 1)
        let run = try runKiosk(trial + kiosk("device"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.events(named: "splash").first?["campaign"] as? String == "a", "\(run.stdout)")
        #expect(run.stderr.contains("never writes in --data-dir \(folder)/device, which holds a kiosk's shows"), "\(run.stderr)")
        #expect(try shows("device") == 1)
        // The real clock in a trial's folder takes the mark away: trials keep out of it after.
        #expect(try runKiosk(["--headless", "--countdown", "1", "--exit-after", "splash"] + kiosk("trial")).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder + "/trial/trial"))
        #expect(try runKiosk(trial + kiosk("trial")).stderr.contains("virtual clock:"))
        #expect(try shows("trial") == 3)
        // Nor the device's picture cache: with no --cache-dir the trial's pictures stay in its folder.
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder + "/home"
        let own = try runKiosk(trial + ["--feed", folder + "/feed.json", "--data-dir", folder + "/t2", "--metrics-file", "off"],
                               environment: environment)
        #expect(own.status == 0 && own.stderr.contains("its pictures in \(folder)/t2/cache"), "\(own.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/t2/cache").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/home/cache"))
    }
}

/// Two kiosks sharing one runtime folder: `status --data-dir` of the one that does not hold
/// the socket says it reached another kiosk, and exits 1.
@Suite struct StatusOfAnotherKioskTests {
    @Test func statusSaysWhenItReachedAnotherKiosk() throws {
        let folder = try temporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = folder + "/run"
        let kiosk = Process()
        kiosk.executableURL = URL(fileURLWithPath: Binary.path)
        kiosk.arguments = ["--headless", "--countdown", "30", "--exit-after", "20", "--data-dir", folder + "/x1",
                           "--cache-dir", folder + "/c1", "--metrics-file", "off"]
        kiosk.environment = environment
        kiosk.standardOutput = FileHandle.nullDevice
        kiosk.standardError = FileHandle.nullDevice
        try kiosk.run()
        defer { if kiosk.isRunning { kill(kiosk.processIdentifier, SIGKILL) }; kiosk.waitUntilExit() }
        #expect(eventually(within: 10) { FileManager.default.fileExists(atPath: folder + "/run/splashboard/control.sock") })
        let own = try runKiosk(["status", "--data-dir", folder + "/x1"], environment: environment)
        #expect(own.status == 0, "\(own.stderr)")
        let other = try runKiosk(["status", "--data-dir", folder + "/x2"], environment: environment)
        #expect(other.status == 1 && other.stderr.contains("keeps its data in \(folder)/x1, not in \(folder)/x2 (--data-dir): it is another kiosk"),
                "\(other.stdout)\(other.stderr)")
    }
}

/// A command given a kiosk's data folder with --data-dir sees what that kiosk sees: its feed,
/// its picture cache, its groups and id, as the kiosk was started with them.
@Suite struct KioskMemoTests {
    @Test func commandsGivenAKiosksDataFolderFollowItsSettings() throws {
        let folder = try temporaryFolder()
        for name in ["lobby", "all"] { try writeImage(folder + "/\(name).png", width: 320, height: 180, bands: [red]) }
        let feed = try writeFeed(folder, #"""
        [{"id": "lobby-offer", "picUrl": "lobby.png", "showTime": 9, "groups": ["lobby"]},
         {"id": "for-everyone", "picUrl": "all.png", "showTime": 9}]
        """#)
        let kiosk = ["--feed", feed, "--data-dir", folder + "/x1/data", "--cache-dir", folder + "/x1/cache",
                     "--device-groups", "lobby", "--device-id", "dev-x1", "--metrics-file", "off"]
        #expect(try runKiosk(["sync"] + kiosk).status == 0)
        let run = try runKiosk(["--headless", "--clock", "virtual", "--exit-after", "first-frame"] + kiosk)
        #expect(run.status == 0, "\(run.stderr)")
        // Only the data folder named: the rest is the kiosk's, and said.
        let listed = try runKiosk(["campaigns", "--json", "--data-dir", folder + "/x1/data"])
        #expect(listed.stderr.contains("--feed, --cache-dir, --device-groups, --device-id as the kiosk of this data folder was started with"),
                "\(listed.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        let eligible = rows.filter { $0["eligible"] as? Bool == true }.compactMap { $0["id"] as? String }.sorted()
        #expect(eligible == ["for-everyone", "lobby-offer"], "\(listed.stdout)")
        let synced = try runKiosk(["sync", "--data-dir", folder + "/x1/data"])
        #expect(synced.status == 0 && synced.stdout.contains("2 campaigns, 2 eligible"), "\(synced.stdout)\(synced.stderr)")
        // Given on the command line, a setting is the command's own.
        let other = try runKiosk(["campaigns", "--json", "--data-dir", folder + "/x1/data", "--device-groups", "cafe"])
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(other.stdout.utf8)) as? [[String: Any]])
        #expect(theirs.filter { $0["eligible"] as? Bool == true }.compactMap { $0["id"] as? String } == ["for-everyone"], "\(other.stdout)")
    }
}
