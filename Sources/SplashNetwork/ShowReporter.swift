import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SplashCore
import SplashServices

/// Proof of play: sends the shows the ledger has not reported yet to `report-url` as
/// OTLP/HTTP JSON, in batches of at most 500, on a thread of its own (a frame never waits
/// for it). A batch is marked reported only when the receiver answers 2xx, so delivery is
/// at least once; `show.id` lets the receiver drop what it already has. It runs when the
/// display says shows have ended and after every feed sync, so a receiver that cannot be
/// reached is tried again on the sync's schedule (at start, every interval, with the
/// sync's backoff after failures). Unsent shows beyond 100,000 are given up, oldest first,
/// with a warning that counts them; they stay in the ledger.
public final class ShowReporter: @unchecked Sendable {
    private let url: URL
    private let deviceID: String?
    private let warn: (String) -> Void
    private var rounds: OutboxRounds?
    private var failing = false

    public init(url: URL, dataDir: String, deviceID: String?, warn: @escaping (String) -> Void) {
        self.url = url
        self.deviceID = deviceID
        self.warn = warn
        rounds = OutboxRounds(name: "splashboard.report", dataDir: dataDir,
                              work: { [unowned self] in try sendWaiting($0) },
                              failed: { [unowned self] in failedRound($0) })
    }

    /// Asks for a round of sending; rounds asked while one runs make one more.
    public func wake() {
        rounds?.wake()
    }

    /// Sends batch after batch until nothing waits or the receiver fails.
    private func sendWaiting(_ store: CampaignStore) throws {
        do {
            let dropped = try store.dropUnreported(keeping: ProofOfPlay.unsentLimit)
            if dropped > 0 {
                warn("proof of play: \(Plural.count(dropped, "show")) were given up unsent (more than \(ProofOfPlay.unsentLimit) waited); "
                     + "they stay in the ledger")
            }
            while true {
                let batch = try store.unreportedShows(limit: ProofOfPlay.batchLimit)
                if batch.isEmpty { break }
                try post(ProofOfPlay.request(for: batch, deviceID: deviceID, version: Version.current))
                try store.markReported(batch.map(\.row))
            }
            if failing { warn("proof of play: \(url.publicAddress) answers again; every waiting show is sent") }
            failing = false
        } catch {
            if !failing {
                let waiting = try? store.unreportedCount()
                warn("proof of play: \(error.localizedDescription); \(waiting.map { "\(Plural.count($0, "show")) wait" } ?? "shows wait") "
                     + "and are sent at the next sync or show")
            }
            failing = true
        }
    }

    private func failedRound(_ error: Error) {
        warn("proof of play: \(error.localizedDescription)")
    }

    /// POSTs one request; throws unless the answer is 2xx.
    private func post(_ body: Data) throws {
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        let done = DispatchSemaphore(value: 0)
        var outcome: Result<Int, Error> = .failure(FetchError.transport("no answer", url: url.publicAddress))
        let task = Self.session.dataTask(with: request) { _, response, error in
            if let error {
                outcome = .failure(FetchError.transport(error.localizedDescription, url: self.url.publicAddress))
            } else {
                outcome = .success((response as? HTTPURLResponse)?.statusCode ?? 0)
            }
            done.signal()
        }
        task.resume()
        done.wait()
        let status = try outcome.get()
        guard (200..<300).contains(status) else { throw FetchError.status(status, url.publicAddress) }
    }

    private static let session: URLSession = {
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = 30
        config.timeoutIntervalForResource = 30
        return URLSession(configuration: config)
    }()
}
