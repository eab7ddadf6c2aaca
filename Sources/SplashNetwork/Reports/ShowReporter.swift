import FoundationEssentials
import SplashCore
import SplashServices
import SplashStorage

/// Proof of play: sends the shows the ledger has not reported yet to `report-url` as
/// OTLP/HTTP JSON, in batches of at most 500, on a thread of its own (a frame never waits
/// for it). A batch is marked reported only when the receiver answers 2xx, so delivery is
/// at least once; `show.id` lets the receiver drop what it already has. It runs when the
/// display says shows have ended and after every feed sync. Posts go through the one
/// `Fetcher` with its limits (the answer read to 64 KiB at most, no redirect from https to
/// http, the address guard); a receiver that fails is tried again after 30 s, 60 s, …
/// at most 15 min, each wait spread by 10 % either way, however often shows end meanwhile.
/// Unsent shows beyond 100,000 are given up, oldest first, with a warning that counts
/// them; they stay in the ledger.
public final class ShowReporter: @unchecked Sendable {
    private let url: URL
    private let deviceID: String?
    /// The groups the device is in, a resource attribute of every report.
    var groups: [String] = []
    private let warn: (String) -> Void
    private var rounds: OutboxRounds?
    private let fetcher: Fetcher
    /// When the receiver may be tried again (`ReceiverRetry` decides).
    private var retry = ReceiverRetry()
    /// The clock waits are measured on and their spread drawn from.
    private let clock: NetworkClock

    /// Reports the ledger's shows in `dataDir` to `url`, naming the device `deviceID`; what
    /// goes wrong is told to `warn`. waits are measured on `clock`.
    public init(url: URL, dataDir: String, deviceID: String?, warn: @escaping (String) -> Void, clock: NetworkClock) {
        self.url = url
        self.deviceID = deviceID
        self.warn = warn
        self.clock = clock
        fetcher = Fetcher(clock: clock)
        rounds = OutboxRounds(name: "splashboard.report", dataDir: dataDir,
                              work: { [weak self] in try self?.sendWaiting($0) },
                              failed: { [weak self] in self?.failedRound($0) })
    }

    /// Asks for a round of sending; rounds asked while one runs make one more.
    public func wake() {
        rounds?.wake()
    }

    /// Waits until the rounds asked for so far have run.
    func finish() {
        rounds?.finish()
    }

    /// Sends batch after batch until nothing waits or the receiver fails.
    private func sendWaiting(_ store: CampaignStore) throws {
        // A receiver that failed is left alone until its backoff has passed.
        guard retry.mayPost(at: clock.uptime()) else { return }
        do {
            let unreadable = try store.giveUpUnreadableShows()
            if unreadable > 0 {
                warn("proof of play: \(Plural.count(unreadable, "show")) in the ledger end or play in words this version does not "
                     + "know (written by a newer Splashboard, or damaged): given up unsent, the others are sent; they stay in the ledger")
            }
            let dropped = try store.dropUnreported(keeping: ProofOfPlay.unsentLimit)
            if dropped > 0 {
                warn("proof of play: \(Plural.count(dropped, "show")) were given up unsent (more than \(ProofOfPlay.unsentLimit) waited); "
                     + "they stay in the ledger")
            }
            while true {
                let batch = try store.unreportedShows(limit: ProofOfPlay.batchLimit)
                if batch.isEmpty { break }
                try post(ProofOfPlay.request(for: batch, deviceID: deviceID, version: Version.current, groups: groups))
                try store.markReported(batch.map(\.row))
            }
            if retry.succeeded() { warn("proof of play: \(url.publicAddress) answers again; every waiting show is sent") }
        } catch {
            let (wait, first) = retry.failed(at: clock.uptime(), spread: ReceiverRetry.spread(drawn: clock.draw()))
            if first {
                let waiting = try? store.unreportedCount()
                let what = waiting.map { $0 == 1 ? "1 show waits and is" : "\($0) shows wait and are" } ?? "shows wait and are"
                warn("proof of play: \(error.explained); \(what) "
                     + "sent once it answers (tried again after \(Int(wait)) s, then less often)")
            }
        }
    }

    private func failedRound(_ error: Error) {
        warn("proof of play: \(error.explained)")
    }

    /// POSTs one request through the fetcher; throws unless the answer is 2xx.
    private func post(_ body: Data) throws {
        try fetcher.post(url, body: body, contentType: "application/json")
    }
}
