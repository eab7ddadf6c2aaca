import Foundation
import SplashCore
@testable import SplashPictures
import SplashServices
import SplashNetwork
import SplashStorage
import SplashTestSupport

/// A device (store + cache) and a web server with a folder of files, for sync tests.
final class SyncFixture {
    let folder: String
    let www: String
    let dataDir: String
    let cacheDir: String
    let server: TestServer
    let store: CampaignStore
    let cache: ImageCache
    let fetcher: Fetcher
    var now = Date(timeIntervalSince1970: 1_790_000_000)

    /// A fixture whose fetches (and so syncs) measure time on `clock`.
    init(clock: NetworkClock = .system) throws {
        fetcher = Fetcher(clock: clock)
        folder = try temporaryFolder()
        www = folder + "/www"
        dataDir = folder + "/data"
        cacheDir = folder + "/cache"
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        server = try TestServer(root: www)
        store = try CampaignStore(dataDir: dataDir)
        cache = try ImageCache(folder: cacheDir)
        fetcher.idleTimeout = 1
        fetcher.totalTimeout = 3
    }

    /// Writes a file to the web folder.
    func publish(_ name: String, _ text: String) throws {
        try text.write(toFile: www + "/" + name, atomically: true, encoding: .utf8)
    }

    /// Writes a solid picture to the web folder.
    func publishImage(_ name: String, _ color: RGBColor, width: Int = 320, height: Int = 180) throws {
        try writeImage(www + "/" + name, width: width, height: height, bands: [color])
    }

    func sync(_ feed: URL, cacheMaxBytes: Int = 256 << 20) -> SyncReport {
        feedSync(cacheMaxBytes: cacheMaxBytes).sync(feed, now: now)
    }

    /// A sync of this device, with the options' default caps unless given.
    func feedSync(cacheMaxBytes: Int = KioskOptions.defaultCacheMaxMB << 20,
                  videoMaxBytes: Int = VideoLimits.defaultMaxMB << 20) -> FeedSync {
        FeedSync(store: store, cache: cache, fetcher: fetcher, cacheMaxBytes: cacheMaxBytes, videoMaxBytes: videoMaxBytes)
    }

    func feedURL(_ name: String = "feed.json") -> URL { server.url("/files/" + name) }

    func catalog() throws -> [CatalogEntry] { try store.catalog(cache: cache) }

    func eligibleIDs() throws -> [Campaign.ID] { try catalog().filter { $0.isEligible(at: now, context: RuleContext(clockTrusted: true, deviceTimeZone: .gmt)) }.map(\.campaign.id) }

    /// Every file with a final cache name is a whole, valid picture; no temporary file is left.
    func cacheIsClean() -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cacheDir)) ?? []
        return names.allSatisfy { name in
            guard name.count == 64 else { return false }
            return (try? ImageValidator.check(cacheDir + "/" + name)) != nil
        }
    }

    /// A fingerprint of the database files, to prove nothing was written.
    func databaseFingerprint() throws -> [Data] {
        try ["", "-wal"].map { suffix in
            let path = dataDir + "/" + CampaignStore.fileName + suffix
            return FileManager.default.fileExists(atPath: path) ? try Data(contentsOf: URL(fileURLWithPath: path)) : Data()
        }
    }
}
