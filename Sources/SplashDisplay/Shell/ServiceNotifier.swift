import FoundationEssentials
import Glibc
import SplashServices

/// Tells systemd how the service is doing, with sd_notify(3)'s protocol written out: one
/// datagram to the socket in `$NOTIFY_SOCKET`. `READY=1` once the first frame is on the
/// screen (the unit is `Type=notify`), and `WATCHDOG=1` from the main loop at half the
/// unit's `WatchdogSec=` (`$WATCHDOG_USEC`), so a loop that hangs gets the process
/// restarted. Outside systemd (no `$NOTIFY_SOCKET`) every call does nothing.
public final class ServiceNotifier {
    private let socketPath: String?
    /// How often the loop must say it is alive; nil when systemd asked for no watchdog.
    public private(set) var watchdogInterval: Double?
    /// The unit's own pace, kept while a dark screen has it relaxed.
    private let unitInterval: Double?
    /// The watchdog's timeout while the screen is off: the loop sleeps until the schedule's
    /// next change, waking only this often (and for syncs) to say it is alive.
    public static let darkWatchdogSeconds: Double = 600
    private var lastPing: TimeInterval = 0
    private let clock: () -> TimeInterval

    /// A notifier for the service `environment` describes; the watchdog's pace is kept on
    /// `clock` (the monotonic clock unless a test moves its own).
    public init(environment: [String: String], clock: @escaping () -> TimeInterval = MonotonicClock.seconds) {
        self.clock = clock
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        // WATCHDOG_PID, when set, names the process the watchdog is for.
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if path != nil, forUs, let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0 {
            watchdogInterval = usec / 1_000_000 / 2
        } else {
            watchdogInterval = nil
        }
        unitInterval = watchdogInterval
    }

    /// The screen went off (`dark`) or on: while it is off the watchdog's timeout is
    /// `darkWatchdogSeconds` (`WATCHDOG_USEC=`), so the dark loop wakes next to never; lit,
    /// it is the unit's again. Said at once, with the status line (the core tells it only
    /// after `ready`).
    public func screen(dark: Bool, status text: String) {
        if let unitInterval {
            let seconds = dark ? Self.darkWatchdogSeconds : unitInterval * 2
            watchdogInterval = seconds / 2
            send("WATCHDOG_USEC=\(Int(seconds * 1_000_000))")
        }
        send("WATCHDOG=1\nSTATUS=" + text)
        lastPing = clock()
    }

    /// The kiosk is up (its first frame, or a start in the dark): the core says it once.
    public func ready() {
        send("READY=1\nSTATUS=showing the kiosk")
        lastPing = clock()
    }

    /// A line for `systemctl status`.
    public func status(_ text: String) {
        send("STATUS=" + text)
    }

    /// Says the loop is alive, when half the watchdog interval has passed since the last time.
    public func keepAlive() {
        guard let watchdogInterval else { return }
        let now = clock()
        guard now - lastPing >= watchdogInterval * 0.5 else { return }
        lastPing = now
        send("WATCHDOG=1")
    }

    private func send(_ message: String) {
        guard let socketPath else { return }
        UnixSocket.sendDatagram(Data(message.utf8), to: socketPath)
    }
}
