import Foundation
import SplashCore

/// Runs feed syncs on a background queue with its own database connection, so the
/// screen never waits for the network, and hands back the report and fresh catalog.
public final class BackgroundSync {
    public typealias Completion = (SyncReport, [CatalogEntry]?, String?) -> Void

    private let feed: URL
    private let dataDir: String
    private let cacheDir: String
    private let cacheMaxBytes: Int
    private let queue = SerialWorker(name: "splashboard.sync")
    private var parts: (store: CampaignStore, cache: ImageCache, sync: FeedSync)?

    public init(feed: URL, dataDir: String, cacheDir: String, cacheMaxBytes: Int) {
        self.feed = feed
        self.dataDir = dataDir
        self.cacheDir = cacheDir
        self.cacheMaxBytes = cacheMaxBytes
    }

    /// Starts one sync at `now` (the kiosk's clock, virtual in tests); `completion` runs on
    /// the background thread when it ends.
    public func start(at now: Date, completion: @escaping Completion) {
        queue.async { [self] in
            do {
                if parts == nil {
                    let store = try CampaignStore(dataDir: dataDir)
                    let cache = try ImageCache(folder: cacheDir)
                    parts = (store, cache, FeedSync(store: store, cache: cache, cacheMaxBytes: cacheMaxBytes))
                }
                let (store, cache, sync) = parts!
                let report = sync.sync(feed, now: now)
                let catalog = report.status == .error ? nil : try store.catalog(cache: cache)
                let message = try store.feedState(for: feed).message
                completion(report, catalog, message)
            } catch {
                completion(SyncReport(status: .error, campaigns: 0, error: error.localizedDescription), nil, nil)
            }
        }
    }
}
