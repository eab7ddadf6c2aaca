import Dispatch
import FoundationEssentials
import SplashCore
import SplashServices
import SplashStorage

/// Feed syncs done by the network process: the request goes over the link, and once the
/// answer is in, the fresh catalog is read from the database the network process wrote
/// (with a connection of this type's own, on the link's reader thread).
public final class LinkedSync: FeedSyncing, @unchecked Sendable {
    /// The longest a sync may take before the network process is stopped and started anew:
    /// far above the fetch limits of one sync's requests together, so only a process that
    /// has stopped answering reaches it.
    public static let timeout: TimeInterval = 600
    /// How long a word to the network process that an outbox has something may wait for
    /// its answer (it answers at once; the sending is its own work).
    public static let reportTimeout: TimeInterval = 30

    private let link: NetworkLink
    private let feed: URL
    private let dataDir: String
    private let cacheDir: String
    private let lock = Lock()
    private var parts: (store: CampaignStore, cache: ImageCache)?

    /// Syncs of `feed` over `link`, read back from the database in `dataDir` and the image
    /// cache in `cacheDir`.
    public init(link: NetworkLink, feed: URL, dataDir: String, cacheDir: String) {
        self.link = link
        self.feed = feed
        self.dataDir = dataDir
        self.cacheDir = cacheDir
    }

    /// Asks the network process for a sync; `completion` gets its report with the catalog and
    /// the feed's message read afterwards, or a failed report.
    public func start(at now: Date, completion: @escaping Completion) {
        link.send(.sync(now: now), timeout: Self.timeout) { [self] result in
            switch result {
            case .failure(let error):
                completion(SyncResult(failed: SyncReport(status: .error, campaigns: 0, error: error.explained)))
            case .success(let answer):
                let report = switch answer.outcome {
                case .synced(let sent): NetworkWire.checked(sent)
                default: SyncReport(status: .error, campaigns: 0, error: answer.outcome.failure ?? "the network process sent no report")
                }
                do {
                    let (catalog, feed) = try read(catalog: report.status != .error)
                    completion(SyncResult(report: report, catalog: catalog,
                                          message: feed.message,
                                          screen: feed.screen))
                } catch {
                    completion(SyncResult(failed: SyncReport(status: .error, campaigns: 0, error: error.explained,
                                                             failure: error is StoreError ? .storage : .other)))
                }
            }
        }
    }

    /// Waits for one sync (at most `timeout` seconds): the first start's read of a local
    /// feed that was never read, so the bundled demo is on the very first splash.
    public func syncNow(at now: Date, timeout: TimeInterval) -> SyncResult? {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        start(at: now) { result in
            box.set(result)
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return box.value
    }

    private func read(catalog wanted: Bool) throws -> ([CatalogEntry]?, CampaignStore.FeedState) {
        lock.lock()
        defer { lock.unlock() }
        if parts == nil { parts = (try CampaignStore(dataDir: dataDir), try ImageCache(folder: cacheDir)) }
        let (store, cache) = parts!
        let catalog = wanted ? try store.catalog(cache: cache) : nil
        return (catalog, try store.feedState(for: feed))
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = Lock()
        private var stored: SyncResult?
        var value: SyncResult? { lock.lock(); defer { lock.unlock() }; return stored }
        func set(_ v: SyncResult) { lock.lock(); stored = v; lock.unlock() }
    }
}
