import FoundationEssentials
import SplashCore

/// Runs work items one after another on a thread of its own, which sleeps on a condition
/// variable while there is nothing to do.
///
/// Used instead of Dispatch queues for the kiosk's background work: once Dispatch starts
/// its worker threads on Linux, its workqueue monitor wakes the process every second for
/// as long as it runs, which is most of an idle kiosk's wake-ups. A plain thread that
/// waits costs nothing.
public final class SerialWorker: @unchecked Sendable {
    private let name: String
    private let condition = LockCondition()
    private var items: [() -> Void] = []
    private var started = false

    /// A worker whose thread, started with its first item, is named `name`.
    public init(name: String) {
        self.name = name
    }

    /// Queues `work`; it runs after everything queued before it.
    public func async(_ work: @escaping () -> Void) {
        condition.lock()
        items.append(work)
        if !started {
            started = true
            NamedThread.start(name: name) { [self] in loop() }
        }
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` once on a new thread of its own.
    public static func detached(name: String, _ work: @escaping () -> Void) {
        // The work is handed to exactly one thread, which runs it once.
        let handover = Handover(work)
        NamedThread.start(name: name) { handover.work() }
    }

    private func loop() {
        while true {
            condition.lock()
            while items.isEmpty { condition.wait() }
            let work = items.removeFirst()
            condition.unlock()
            work()
        }
    }

    private final class Handover: @unchecked Sendable {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }
}
