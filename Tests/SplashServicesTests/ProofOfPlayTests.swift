import Foundation
import Glibc
import SplashCore
import SplashServices
@testable import SplashNetwork
import SplashStorage
import SplashTestSupport
import Testing

/// Proof of play: every show reaches an OTLP receiver that parses it with the official
/// schema, across kills of the kiosk and a receiver that is down for a while.
@Suite struct ProofOfPlayTests {
    @Test func everyShowArrivesAcrossKillsAndAnOutageWithDuplicatesOnlyAsRepeatedIDs() throws {
        let s = try StoredCampaign(showLimit: 100_000)
        let receiver = try OTLPReceiver()
        let report = ["--report-url", receiver.url, "--device-id", "lobby-3"]
        // The kills' delays come from a seed, printed so that a failing run can be repeated
        // (SPLASHBOARD_TEST_SEED=S).
        let seed = ProcessInfo.processInfo.environment["SPLASHBOARD_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1 ... 1 << 32)
        print("proof of play: kill delays from seed \(seed)")
        var generator = SeededGenerator(seed: seed)
        for run in 0..<8 {
            try receiver.set(down: (2..<5).contains(run))
            let kiosk = Process()
            kiosk.executableURL = URL(fileURLWithPath: Binary.path)
            kiosk.arguments = ["--headless", "--clock", "virtual", "--countdown", "1", "--attract-after", "1",
                               "--sync-interval", "10", "--exit-after", "60"] + report + s.args
            kiosk.standardOutput = FileHandle.nullDevice
            kiosk.standardError = FileHandle.nullDevice
            try kiosk.run()
            if run % 2 == 1 {
                usleep(UInt32.random(in: 50_000...400_000, using: &generator))
                kill(kiosk.processIdentifier, SIGKILL)
            }
            kiosk.waitUntilExit()
        }
        // The receiver is back: a last run, in real time, sends what waits at its first sync.
        try receiver.set(down: false)
        let last = try runKiosk(["--headless", "--countdown", "30", "--exit-after", "4"] + report + s.args)
        #expect(last.status == 0)

        let store = try CampaignStore(dataDir: s.folder + "/data")
        let ended = try store.db.rows("SELECT show_id, ended_by, reported FROM shows WHERE ended_by IS NOT NULL")
        let ledger = Set(try ended.compactMap { try $0["show_id"].text })
        let got = try receiver.received()
        let ids = got.records.compactMap { $0["show.id"] as? String }
        #expect(got.invalid.isEmpty, "\(got.invalid)")
        #expect(got.refused > 0, "the receiver was never asked while it was down")
        #expect(ledger.count > 20, "seed \(seed)")
        #expect(ledger.isSubset(of: Set(ids)), "seed \(seed): \(ledger.subtracting(ids).count) shows never arrived")
        #expect(Set(ids).isSubset(of: ledger), "a show.id that is not in the ledger")
        #expect(try ended.allSatisfy { try $0["reported"].int == 1 })
        // Shows cut short by a kill are reported as interrupted; the others by how they ended.
        let endings = Set(got.records.compactMap { $0["show.ended_by"] as? String })
        #expect(endings.isSubset(of: ["tap", "key", "timeout", "click_through", "interrupted"]))
        #expect(endings.contains("interrupted") && endings.contains("timeout"), "seed \(seed): \(endings)")
        for record in got.records {
            #expect(record["campaign.id"] as? String == "stored")
            #expect((record["show.seconds"] as? Double).map { $0 >= 0 } == true)
            #expect(((record["timeUnixNano"] as? NSNumber)?.int64Value ?? 0) > 1_700_000_000_000_000_000)
            let resource = record["resource"] as? [String: Any] ?? [:]
            #expect(resource["service.name"] as? String == "splashboard")
            #expect(resource["service.instance.id"] as? String == "lobby-3")
            #expect(resource["service.version"] as? String == Version.current)
        }
        print("proof of play: \(ledger.count) shows, \(ids.count) records in \(got.posts) posts, "
              + "\(ids.count - Set(ids).count) duplicates, \(got.refused) posts refused while down")
    }

    @Test func aShowIsOneStructuredJournalEntry() throws {
        let s = try StoredCampaign()
        let socket = s.folder + "/journal.sock"
        let listener = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(UnixSocket.withAddress(socket) { bind(listener, $0, $1) } == 0)
        defer { close(listener) }
        var environment = ProcessInfo.processInfo.environment
        environment["SPLASHBOARD_JOURNAL_SOCKET"] = socket
        let run = try runKiosk(["--headless", "--clock", "virtual", "--countdown", "1", "--exit-after", "detail",
                                "--device-id", "lobby-3"] + s.args, environment: environment)
        #expect(run.status == 0)
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(listener, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        let entry = String(decoding: buffer[0..<max(n, 0)], as: UTF8.self)
        #expect(entry.contains("MESSAGE_ID=\(ProofOfPlay.journalMessageID)\n"), "\(entry)")
        #expect(entry.contains("CAMPAIGN_ID=stored\n") && entry.contains("SHOW_ENDED_BY=timeout\n"))
        #expect(entry.contains("DEVICE_ID=lobby-3\n") && entry.contains("SHOW_SECONDS=1.000\n"))
        let store = try CampaignStore(dataDir: s.folder + "/data")
        let id = try #require(try store.db.rows("SELECT show_id FROM shows").first?["show_id"].text)
        #expect(entry.contains("SHOW_ID=\(id)\n"))
    }
}

/// The receiver of proof of play gets no more trust than a feed server: its answer is read
/// to a limit, and a receiver that fails is left alone for a while.
@Suite struct ReportLimitsTests {
    @Test func anEndlessAnswerIsCutAtTheLimit() throws {
        let folder = try temporaryFolder()
        let server = try TestServer(root: folder)
        let fetcher = Fetcher()
        do {
            try fetcher.post(server.url("/endless"), body: Data("{}".utf8), contentType: "application/json")
            Issue.record("an endless answer was read to its end")
        } catch let error as FetchError {
            guard case .tooLarge(let limit, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(limit == 64 << 10)
        }
        // A 2xx other than 200 is a success; an error status is an error, with its number.
        try fetcher.post(server.url("/status/204"), body: Data("{}".utf8), contentType: "application/json")
        #expect(throws: FetchError.status(503, server.url("/status/503").absoluteString)) {
            try fetcher.post(server.url("/status/503"), body: Data("{}".utf8), contentType: "application/json")
        }
        #expect(throws: FetchError.unsupportedScheme("file:///etc/hostname")) {
            try fetcher.post(URL(string: "file:///etc/hostname")!, body: Data(), contentType: "application/json")
        }
    }

    /// The reporter against a real receiver that is down, on a clock of the test's: one post
    /// fails, the shows that end meanwhile post nothing until the wait (30 s, spread to 33)
    /// is over, the next failure waits 60 s, and the receiver back gets everything, said once.
    @Test func aFailedReceiverIsNotAskedAgainBeforeItsWaitHoweverOftenShowsEnd() throws {
        let folder = try temporaryFolder()
        let store = try CampaignStore(dataDir: folder)
        func show() throws {
            try store.recordShow(campaignID: "a", at: Date())
            try store.endShow(campaignID: "a", by: .timeout, at: Date())
        }
        try show()
        let receiver = try OTLPReceiver()
        try receiver.set(down: true)
        final class Box: @unchecked Sendable {
            var now: Seconds = 1_000
            var warnings: [String] = []
        }
        let box = Box()
        let reporter = ShowReporter(url: URL(string: receiver.url)!, dataDir: folder, deviceID: "t",
                                    warn: { box.warnings.append($0) }, clock: NetworkClock(uptime: { box.now }, date: { Date() }, draw: { 1 }))
        func round() throws -> Int {
            reporter.wake()
            reporter.finish()
            return try receiver.received().refused
        }
        #expect(try round() == 1)
        for _ in 0..<5 {
            try show()
            #expect(try round() == 1, "asked again during its wait")
        }
        box.now += 32.9
        #expect(try round() == 1, "asked again before 30 s spread by 10 %")
        box.now += 0.2
        #expect(try round() == 2)
        box.now += 65
        #expect(try round() == 2, "the second wait is 60 s, spread")
        try receiver.set(down: false)
        box.now += 1
        #expect(try round() == 2)
        #expect(try receiver.received().records.count == 6)
        #expect(box.warnings.filter { $0.contains("tried again after 30 s") }.count == 1, "\(box.warnings)")
        #expect(box.warnings.last?.contains("answers again") == true, "\(box.warnings)")
    }

    /// A device's groups go with its reports, as an array attribute of the resource.
    @Test func theDevicesGroupsAreAResourceAttribute() throws {
        let body = ProofOfPlay.request(for: [], deviceID: "lobby-3", version: "1", groups: ["lobby", "cafe"])
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let resource = ((object["resourceLogs"] as? [[String: Any]])?.first?["resource"] as? [String: Any])?["attributes"] as? [[String: Any]]
        let groups = try #require(resource?.first { $0["key"] as? String == "splashboard.device.groups" })
        let values = ((groups["value"] as? [String: Any])?["arrayValue"] as? [String: Any])?["values"] as? [[String: Any]]
        #expect(values?.compactMap { $0["stringValue"] as? String } == ["lobby", "cafe"])
        // None without groups.
        #expect(!String(decoding: ProofOfPlay.request(for: [], deviceID: "x", version: "1"), as: UTF8.self).contains("groups"))
    }
}
