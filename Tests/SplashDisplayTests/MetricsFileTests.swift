import Foundation
import Glibc
import SplashTestSupport
import Testing

/// The metrics file, as Prometheus's own tools and node exporter read it.
@Suite struct MetricsFileTests {
    @Test func promtoolAcceptsItAndNodeExporterServesIt() throws {
        let s = try StoredCampaign()
        let folder = s.folder + "/textfile"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/splashboard.prom"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--attract-after", "1",
                                "--exit-after", "12", "--metrics-file", file, "--device-id", "lobby-3",
                                "--device-groups", "lobby,ground-floor"] + s.args)
        #expect(run.status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let check = try Self.run("/usr/bin/promtool", ["check", "metrics"], input: text)
        #expect(check.status == 0, "promtool: \(check.output)")
        #expect(text.contains("splashboard_shows_total{campaign=\"stored\",ended_by=\"timeout\"} "))
        #expect(text.contains("splashboard_campaigns{state=\"eligible\"} 1"))
        // Stored without groups, run with them: the feed is read in full once for its new groups.
        #expect(text.contains("splashboard_sync_total{status=\"ok\"} 1"), "\(text)")
        #expect(text.contains("splashboard_first_frame_seconds "))
        #expect(text.contains("splashboard_screen_on{reason=\"start\"} 1\n"), "\(text)")
        #expect(text.contains("splashboard_screen_seconds_total{state=\"off\"} 0\n"))
        #expect(text.contains("splashboard_outputs 1\n"))
        let shows = run.events(named: "splash").count
        // The last splash is still open at the exit: ended shows only.
        #expect(text.contains("splashboard_shows_total{campaign=\"stored\",ended_by=\"timeout\"} \(shows - 1)\n"), "\(text)")

        // Node exporter's textfile collector, on a port of its own, serves every line.
        let port = unusedPort()
        let exporter = Process()
        exporter.executableURL = URL(fileURLWithPath: "/usr/bin/prometheus-node-exporter")
        exporter.arguments = ["--web.listen-address=127.0.0.1:\(port)", "--collector.disable-defaults",
                              "--collector.textfile", "--collector.textfile.directory=\(folder)"]
        exporter.standardOutput = FileHandle.nullDevice
        exporter.standardError = FileHandle.nullDevice
        try exporter.run()
        defer { exporter.terminate(); exporter.waitUntilExit() }
        var scraped = ""
        eventually(within: 5) {
            guard let data = try? Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/metrics")!) else { return false }
            scraped = String(decoding: data, as: UTF8.self)
            return true
        }
        #expect(scraped.contains("splashboard_build_info{version="), "\(scraped.prefix(500))")
        #expect(scraped.contains("splashboard_device_info{device=\"lobby-3\",groups=\"lobby,ground-floor\"} 1"), "\(scraped.prefix(800))")
        #expect(scraped.contains("splashboard_scene{scene="))
        #expect(scraped.contains("node_textfile_scrape_error 0"))
    }

    /// An id with a terminal escape, a bell and a line separator reaches the metrics file
    /// written out (`\x1b`), not raw: `curl …/metrics` in an admin's terminal shows it as
    /// text, and promtool still reads the file.
    @Test func aFeedsEscapesNeverReachTheFileRaw() throws {
        let folder = try temporaryFolder()
        try writeImage(folder + "/a.png", width: 64, height: 36, bands: [red])
        let feed = try writeFeed(folder, #"[{"id": "ad\u001b]0;owned\u0007\u2028x", "picUrl": "a.png", "showTime": 5}]"#)
        let file = folder + "/splashboard.prom"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--exit-after", "4", "--feed", feed,
                                "--data-dir", folder + "/data", "--cache-dir", folder + "/cache", "--metrics-file", file])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x2028 }, "\(text)")
        #expect(text.contains(#"campaign="ad\\x1b]0;owned\\x07\\u{2028}x""#), "\(text)")
        #expect(try Self.run("/usr/bin/promtool", ["check", "metrics"], input: text).status == 0)
        // The JSON events write them as \u escapes.
        #expect(!run.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x2028 })
        #expect(run.stdout.contains(#""campaign":"ad\u001b]0;owned\u0007\u2028x""#), "\(run.stdout.prefix(600))")
    }

    @Test func aFolderThatCannotBeWrittenIsSaidAndTheKioskRunsOn() throws {
        let s = try StoredCampaign()
        let file = s.folder + "/no-such-folder/splashboard.prom"
        let run = try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--exit-after", "splash",
                                "--metrics-file", file] + s.args)
        #expect(run.status == 0, "\(run.stderr)")
        // Once, however often the metrics change: not a line at every show.
        let said = run.events(named: "warning").compactMap { $0["message"] as? String }
            .filter { $0.contains("metrics: the file is not written") }
        #expect(said.count == 1, "\(run.stdout)")
        #expect(said.first?.contains(file + ": No such file or directory") == true
                && said.first?.contains("check that this user may write its folder") == true, "\(said)")
        #expect(!run.stdout.contains("image cache"), "\(run.stdout)")
    }

    /// Many changes of the metrics give at most the paced writes and the exit's: a minute on
    /// the virtual clock changes the scene again and again yet ends within moments of real
    /// time, and the writes, counted as they put the file in place, are the first change's, at
    /// most one more per 10 s of real time, and the exit's (the pace itself is
    /// `WritePacerTests`', on a hand clock).
    @Test func itIsWrittenAtMostEveryTenSecondsAndOnceMoreAtTheEnd() throws {
        let s = try StoredCampaign()
        let name = "splashboard.prom"
        let file = s.folder + "/" + name
        // Each write renames a temporary file over this one: one IN_MOVED_TO with its name.
        let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(watch >= 0, "inotify: \(String(cString: strerror(errno)))")
        defer { close(watch) }
        try #require(inotify_add_watch(watch, s.folder, UInt32(IN_MOVED_TO)) >= 0,
                     "inotify: \(String(cString: strerror(errno)))")
        let start = ProcessInfo.processInfo.systemUptime
        let run = try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--attract-after", "1",
                                "--exit-after", "60", "--metrics-file", file] + s.args)
        let elapsed = ProcessInfo.processInfo.systemUptime - start
        #expect(run.status == 0, "\(run.stderr)")
        // Many changes: the splash shown again and again.
        let shows = run.events(named: "splash").count
        #expect(shows >= 2, "\(shows) shows")

        // The events waiting: a header (wd, mask, cookie, len) and `len` bytes of name padded with NULs.
        var writes = 0
        var overflowed = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(watch, &buffer, buffer.count)
            guard n > 0 else { break }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + 16 <= n {
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = raw[(offset + 16)..<min(offset + 16 + length, n)].prefix(while: { $0 != 0 })
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
                    if mask & UInt32(IN_MOVED_TO) != 0, String(decoding: nameBytes, as: UTF8.self) == name { writes += 1 }
                    offset += 16 + length
                }
            }
        }
        #expect(!overflowed, "inotify's queue overflowed")
        #expect((1...(2 + Int(elapsed / 10))).contains(writes), "\(writes) writes of the file in \(elapsed) s")
        // The exit's write has the last state: shows counted (a sample, not only its help line).
        let final = try String(contentsOfFile: file, encoding: .utf8)
        #expect(final.contains("splashboard_shows_total{campaign=\"stored\""), "the last state was not written at the end")
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: s.folder)).contains { $0.contains(".prom.tmp") })
    }

    static func run(_ tool: String, _ arguments: [String], input: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let inPipe = Pipe()
        let outPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = outPipe
        try process.run()
        inPipe.fileHandleForWriting.write(Data(input.utf8))
        try inPipe.fileHandleForWriting.close()
        let output = String(decoding: outPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
