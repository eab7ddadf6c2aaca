import Foundation
@testable import SplashCore
@testable import SplashDisplay
import SplashLink
import SplashStorage
import SplashTestSupport
import Testing

extension InProcessCanvasTests {
    /// The display's shell run in the test's own process: a headless canvas as its output,
    /// a real ledger, the bundled poems, a sync that answers at once, the virtual clock — the
    /// loop the kiosk runs, with nothing spawned.
    @Suite struct InProcessRunnerTests {
        /// Answers every sync at once: nothing changed.
        final class AnsweringSync: FeedSyncing, @unchecked Sendable {
            private let lock = NSLock()
            private var count = 0
            var asked: Int { lock.lock(); defer { lock.unlock() }; return count }

            func start(at now: Date, completion: @escaping Completion) {
                lock.lock()
                count += 1
                lock.unlock()
                completion(SyncResult(report: SyncReport(status: .notModified, campaigns: 1), catalog: nil, message: nil))
            }
        }

        @Test func theLoopRecordsEachShowDrawsEachScreenAndTellsTheCore() throws {
            let folder = try temporaryFolder()
            try writeImage(folder + "/a.jpg", width: 640, height: 360, bands: [.init(red: 200, green: 40, blue: 40)])
            try writeImage(folder + "/default.jpg", width: 640, height: 360, bands: [.init(red: 20, green: 20, blue: 160)])
            let options = try OptionParser.parse(
                ["--headless", "--clock", "virtual", "--countdown", "2", "--attract-after", "1", "--exit-after", "12",
                 "--data-dir", folder + "/data", "--cache-dir", folder + "/cache", "--snapshot", folder + "/shots"],
                environment: ["HOME": folder], currentDirectory: folder, readFile: { _ in nil }).options
            let store = try CampaignStore(dataDir: options.dataDir)
            let settings = KioskSettings(options: options, defaultImage: folder + "/default.jpg", timeZone: .gmt,
                                         screenLeftDark: false, syncSeed: 1)
            let campaign = Campaign(id: "a", picURL: URL(string: "https://example.test/a.jpg")!, showLimit: 2, title: "A",
                                    detail: "Detail", startAt: nil, endAt: nil, updatedAt: nil, position: 0)
            let sync = AnsweringSync()
            let setup = KioskSetup(options: options, settings: settings,
                                   catalog: [CatalogEntry(campaign: campaign, shows: 0, picture: .cached(path: folder + "/a.jpg"))],
                                   message: nil, script: [])
            var dependencies = KioskDependencies(clock: RunClock(mode: .virtual), sync: sync,
                                                 poetry: BundledPoetryProvider(poems: [], refresh: 300), ledger: store)
            final class Said: @unchecked Sendable { var events: [KioskEvent] = [] }
            let said = Said()
            dependencies.observe = { event, _ in said.events.append(event) }
            let quiet = try #require(fopen("/dev/null", "w"))
            defer { fclose(quiet) }
            let canvas = try Canvas(headless: true, size: Size(width: 800, height: 480), rotation: .none)
            let runner = KioskRunner(setup: setup, dependencies: dependencies, screens: Screens(window: canvas),
                                     fonts: try FontBook.located(font: nil, memo: nil), log: EventLog(format: .text, into: quiet))
            try runner.run()

            // Two shows (its limit), each in the ledger, then the default picture.
            #expect(try store.showCounts()["a"] == 2)
            let splashes: [Campaign.ID?] = said.events.compactMap { if case .splash(let id, _, _, _) = $0 { .some(id) } else { nil } }
            #expect(Array(splashes.prefix(3)) == ["a", "a", nil], "\(splashes) \(said.events.map(\.name))")
            // The core heard each screen presented, and asked for the sync once the first was up.
            #expect(said.events.contains { if case .firstFrame = $0 { true } else { false } })
            #expect(runner.state.framesPresented >= 4 && sync.asked >= 1)
            // The painter wrote each distinct screen as a snapshot, in order: the splash, its
            // countdown's next number, the detail screen.
            let shots = try FileManager.default.contentsOfDirectory(atPath: folder + "/shots").sorted()
            #expect(Array(shots.prefix(3)) == ["0001-splash.png", "0002-splash.png", "0003-detail.png"], "\(shots)")
        }
    }
}
