import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A lock with a condition to wait on (a pthread mutex and condition variable), as
/// Foundation's `NSCondition` was.
public final class LockCondition: @unchecked Sendable {
    private let lockItself = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { lockItself.lock() }
    public func unlock() { lockItself.unlock() }
    /// Wakes one waiter.
    public func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }
    /// Waits (holding the lock) until signalled.
    public func wait() { pthread_cond_wait(condition, lockItself.mutex) }

    /// Waits until signalled or until the wall clock reaches `date`; false when the time came.
    @discardableResult
    public func wait(until date: Date) -> Bool {
        let seconds = max(0, date.timeIntervalSince1970)
        var deadline = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        return pthread_cond_timedwait(condition, lockItself.mutex, &deadline) == 0
    }
}
