import SplashCore

/// How many connections the network process serves at once, each on a thread of its own: a
/// bounded number, so that a peer opening connections without end (a stuck display, a script)
/// is turned away with one line instead of using up the process's threads.
final class ConnectionSlots: @unchecked Sendable {
    /// The connections served at once. The display holds one; `splashboard` commands and a
    /// restarting display a few more.
    static let limit = 16

    private let lock = Lock()
    private var taken = 0

    /// Takes a slot; false when all are taken.
    func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard taken < Self.limit else { return false }
        taken += 1
        return true
    }

    /// Gives a slot back when its connection has ended.
    func giveBack() {
        lock.lock()
        taken -= 1
        lock.unlock()
    }
}
