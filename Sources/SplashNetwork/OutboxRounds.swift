import Foundation
import SplashServices

/// Runs a round of work on an outbox of the ledger (proof of play, tracking pings) on a
/// thread of its own each time it is woken, with a database connection of its own; wakes
/// that come during a round make one more round after it, however many they are. The
/// thread sleeps on a condition variable in between (no timer, no wake-ups of its own).
final class OutboxRounds: @unchecked Sendable {
    private let name: String
    private let dataDir: String
    private let work: (CampaignStore) throws -> Void
    private let failed: (Error) -> Void
    private var store: CampaignStore?
    private let condition = NSCondition()
    private var wanted = false
    private var started = false

    init(name: String, dataDir: String, work: @escaping (CampaignStore) throws -> Void,
         failed: @escaping (Error) -> Void) {
        self.name = name
        self.dataDir = dataDir
        self.work = work
        self.failed = failed
    }

    func wake() {
        condition.lock()
        wanted = true
        if !started {
            started = true
            let thread = Thread { [self] in loop() }
            thread.name = name
            thread.start()
        }
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while !wanted { condition.wait() }
            wanted = false
            condition.unlock()
            do {
                if store == nil { store = try CampaignStore(dataDir: dataDir) }
                if let store { try work(store) }
            } catch {
                failed(error)
            }
        }
    }
}
