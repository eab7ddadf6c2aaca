import FoundationEssentials
import Glibc
import SplashCore
import SplashServices
import SplashStorage

/// Writes the kiosk's metrics (`metrics-file`) for node exporter's textfile collector: the
/// whole file again, to a temporary name and renamed over the old one (a scrape never
/// reads half a file), when a value has changed — at most every 10 seconds, on a thread of
/// its own that sleeps while nothing changes. The loop hands it what only it knows (scene,
/// syncs, catalog, first frame); the ledger, the report outbox and the cache are read here.
public final class MetricsFile: @unchecked Sendable {
    /// Debian's node exporter textfile folder; the default file goes there when it exists.
    public static let nodeExporterFolder = "/var/lib/prometheus/node-exporter"
    /// Seconds between two writes of the file, at the least.
    public static let minimumInterval: TimeInterval = 10

    /// The file kept.
    public let path: String
    private let dataDir: String
    private let cacheDir: String
    private let feed: URL
    private let condition = LockCondition()
    private var live: KioskMetrics
    private var dirty = false
    private var started = false
    /// When the file may be written again (`WritePacer`, on the monotonic clock).
    private var pacer = WritePacer(interval: MetricsFile.minimumInterval)
    private let writeLock = Lock()
    private var written: String?
    /// The last write failed (and was said).
    private var failing = false
    private var parts: (store: CampaignStore, cache: ImageCache)?
    private let warn: (String) -> Void

    /// The file `metrics-file` names, or by default the one in node exporter's folder when
    /// that folder exists and this process may write there; nil for none.
    public static func path(option: String?) -> String? {
        if let option { return option == "off" ? nil : option }
        guard PathKind.of(nodeExporterFolder) == .folder,
              access(nodeExporterFolder, W_OK) == 0
        else { return nil }
        return nodeExporterFolder + "/splashboard.prom"
    }

    private let reporting: Bool

    /// `reporting`: whether shows are reported (`report-url`); without, none counts as unsent.
    public init(path: String, dataDir: String, cacheDir: String, feed: URL, reporting: Bool,
                warn: @escaping (String) -> Void) {
        self.path = path
        self.reporting = reporting
        self.dataDir = dataDir
        self.cacheDir = cacheDir
        self.feed = feed
        self.warn = warn
        live = KioskMetrics(version: Version.current)
    }

    /// Changes what the loop knows; the file follows within 10 seconds.
    public func update(_ change: (inout KioskMetrics) -> Void) {
        condition.lock()
        change(&live)
        dirty = true
        if !started {
            started = true
            NamedThread.start(name: "splashboard.metrics") { [self] in loop() }
        }
        condition.signal()
        condition.unlock()
    }

    /// Writes now, whatever the interval (the kiosk is stopping).
    public func flush() {
        condition.lock()
        let snapshot = live
        dirty = false
        condition.unlock()
        write(snapshot)
    }

    private func loop() {
        while true {
            condition.lock()
            while !dirty { condition.wait() }
            let wait = pacer.wait(at: MonotonicClock.seconds())
            if wait > 0 {
                _ = condition.wait(seconds: wait)
                condition.unlock()
                continue
            }
            dirty = false
            let snapshot = live
            condition.unlock()
            write(snapshot)
        }
    }

    private func write(_ base: KioskMetrics) {
        writeLock.lock()
        defer { writeLock.unlock() }
        var metrics = base
        do {
            if parts == nil { parts = (try CampaignStore(dataDir: dataDir), try ImageCache(folder: cacheDir)) }
            let (store, cache) = parts!
            metrics.shows = try store.showCountsByEnding()
            metrics.reportUnsent = reporting ? try store.unreportedCount() : 0
            let state = try store.feedState(for: feed)
            metrics.lastSyncSuccess = state.lastConfirmed
            metrics.lastChange = state.lastChange
            metrics.feedWarnings = state.warnings.count
            metrics.cacheBytes = cache.usage()
        } catch {
            warn("metrics: \(error.explained)")
        }
        let text = metrics.text
        guard text != written else { return }
        // A name of its own made with mkstemp (O_EXCL: never an existing file or a symbolic
        // link someone put in the shared folder), not ending in .prom (the collector reads
        // only those), written whole, then renamed over the old file.
        var template = Array((path + ".tmp-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let temporary = String(cString: template)
        do {
            guard fd >= 0 else { throw MetricsFileError.cannotWrite(path, String(cString: strerror(errno))) }
            defer { close(fd) }
            fchmod(fd, 0o644)
            let bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw MetricsFileError.cannotWrite(temporary, String(cString: strerror(errno))) }
                offset += n
            }
            guard rename(temporary, path) == 0 else {
                throw MetricsFileError.cannotWrite(path, String(cString: strerror(errno)))
            }
            written = text
            if failing { warn("metrics: \(path) is written again") }
            failing = false
        } catch {
            if fd >= 0 { unlink(temporary) }
            // Said once, until a write succeeds; tried again no sooner than the next write would be.
            if !failing {
                warn("metrics: the file is not written (\(error.explained)); check that this user may write its "
                     + "folder (tried again every \(Int(Self.minimumInterval)) s)")
            }
            failing = true
        }
        condition.lock()
        pacer.wrote(at: MonotonicClock.seconds())
        condition.unlock()
    }
}
