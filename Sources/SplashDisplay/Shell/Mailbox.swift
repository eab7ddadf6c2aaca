import FoundationEssentials
import SplashServices
import SplashCore

/// A thread-safe list of actions waiting for the loop, and of work to do on its thread
/// (answers to the control socket, which read what only the loop may touch).
final class Mailbox: @unchecked Sendable {
    private let lock = Lock()
    private var items: [(Instant) -> KioskAction] = []
    private var tasks: [() -> Void] = []

    func post(task: @escaping () -> Void) {
        lock.lock()
        tasks.append(task)
        lock.unlock()
    }

    func takeTasks() -> [() -> Void] {
        lock.lock()
        defer { lock.unlock() }
        let taken = tasks
        tasks = []
        return taken
    }

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
