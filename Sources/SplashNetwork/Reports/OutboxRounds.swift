import Dispatch
import FoundationEssentials
import SplashCore
import SplashServices
import SplashStorage

/// Runs a round of work on an outbox of the ledger (proof of play, tracking pings) on a
/// thread of its own (a `SerialWorker`) each time it is woken, with a database connection
/// of its own; wakes that come during a round make one more round after it, however many
/// they are. The thread sleeps in between (no timer, no wake-ups of its own). Its owner's
/// work is held weakly: a round after the owner is gone does nothing.
final class OutboxRounds: @unchecked Sendable {
    private let dataDir: String
    private let work: (CampaignStore) throws -> Void
    private let failed: (Error) -> Void
    private var store: CampaignStore?
    private let worker: SerialWorker
    private let lock = Lock()
    private var queued = false

    init(name: String, dataDir: String, work: @escaping (CampaignStore) throws -> Void,
         failed: @escaping (Error) -> Void) {
        self.dataDir = dataDir
        self.work = work
        self.failed = failed
        worker = SerialWorker(name: name)
    }

    /// Asks for a round. A round is queued at most once: wakes before it starts join it,
    /// wakes while it runs queue the one after it.
    func wake() {
        lock.lock()
        defer { lock.unlock() }
        guard !queued else { return }
        queued = true
        worker.async { [self] in
            lock.lock()
            queued = false
            lock.unlock()
            round()
        }
    }

    /// Waits until the rounds asked for so far have run.
    func finish() {
        let done = DispatchSemaphore(value: 0)
        worker.async { done.signal() }
        done.wait()
    }

    private func round() {
        do {
            if store == nil { store = try CampaignStore(dataDir: dataDir) }
            if let store { try work(store) }
        } catch {
            failed(error)
        }
    }
}
