import Foundation
import SplashCore

/// A thread-safe list of actions waiting for the loop.
final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(Instant) -> KioskAction] = []

    func post(_ make: @escaping (Instant) -> KioskAction) {
        lock.lock()
        items.append(make)
        lock.unlock()
    }

    func take() -> [(Instant) -> KioskAction] {
        lock.lock()
        defer { lock.unlock() }
        let taken = items
        items = []
        return taken
    }
}
