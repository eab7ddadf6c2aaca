import Foundation

/// Runs a round of work on a thread of its own each time it is woken; wakes that come
/// during a round make one more round after it, however many they are. The thread sleeps
/// on a condition variable in between (no timer, no wake-ups of its own).
final class WakeableRound: @unchecked Sendable {
    private let name: String
    private let work: () -> Void
    private let condition = NSCondition()
    private var wanted = false
    private var started = false

    init(name: String, work: @escaping () -> Void) {
        self.name = name
        self.work = work
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
            work()
        }
    }
}
