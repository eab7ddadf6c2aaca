import CSystem
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own (pthread), named as `ps -L` and the journal's backtraces show it,
/// as Foundation's `Thread` was.
public enum NamedThread {
    /// Runs `work` once on a new thread named `name` (shortened to the kernel's 15
    /// characters: the part after "splashboard." when the whole is longer).
    /// For the threads the program is built of (started once, at its start): a system that
    /// cannot give one is a fatal error. A thread started for input uses `tryStart`.
    public static func start(name: String, _ work: @escaping () -> Void) {
        if let refused = tryStart(name: name, work) { fatalError("cannot start the thread \(name): \(refused)") }
    }

    /// Runs `work` once on a new thread named `name`; nil when it started, else why the
    /// system gave no thread (it has run out, or this process's limit is reached).
    public static func tryStart(name: String, _ work: @escaping () -> Void) -> String? {
        var short = name
        if short.utf8.count > 15, short.hasPrefix("splashboard.") { short = String(short.dropFirst(12)) }
        let box = Unmanaged.passRetained(Box(name: String(short.utf8.prefix(15))!, work)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            _ = splash_name_thread(box.name)
            box.work()
            return nil
        }, box)
        guard made == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return String(cString: strerror(made))
        }
        pthread_detach(thread)
        return nil
    }

    private final class Box {
        let name: String
        let work: () -> Void
        init(name: String, _ work: @escaping () -> Void) { self.name = name; self.work = work }
    }
}
