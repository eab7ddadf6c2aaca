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
        // Timed waits count on the monotonic clock: a wall clock stepped back (NTP's first
        // correction on a board with no RTC) never stretches one.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
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

    /// Waits until signalled or for at most `seconds` on the monotonic clock; false when the
    /// time came.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        let wait = max(0, seconds)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanoseconds = deadline.tv_nsec + Int((wait - wait.rounded(.down)) * 1e9)
        deadline.tv_sec += Int(wait) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return pthread_cond_timedwait(condition, lockItself.mutex, &deadline) == 0
    }
}
