import FoundationEssentials
import SplashCore
import SplashServices
import SplashStorage

/// Fires the ad networks' tracking URLs from the ledger's outbox (`pings`): each once per
/// show, kind and URL, through the same fetcher and address guard as pictures (a feed named
/// them). A ping that never left (no name, no connection, the address rule) waits for the
/// next round — after the next show or sync — and is given up after 24 hours; one that may
/// have arrived (sent, but its answer too slow or cut off, or cut off on its way by a stop)
/// is never sent again: at most once. Settled pings are deleted at each round.
public final class TrackingPings: @unchecked Sendable {
    /// Pings sent in one round at the most; the rest wait for the next.
    static let perRound = 200
    /// Pings kept waiting at the most (each is a URL of up to 2,048 characters).
    static let waitingLimit = 5_000
    /// The most of an answer read (its body is not used).
    static let answerLimit = 64 * 1024

    private let fetcher: Fetcher
    private let warn: (String) -> Void
    private var rounds: OutboxRounds?
    /// The clock pings are given up by (its wall clock).
    private let clock: NetworkClock

    /// Fires the pings waiting in the ledger in `dataDir` through `fetcher`; what goes wrong
    /// is told to `warn`; pings are given up by `clock`'s date.
    public init(dataDir: String, fetcher: Fetcher, clock: NetworkClock, warn: @escaping (String) -> Void) {
        self.fetcher = fetcher
        self.warn = warn
        self.clock = clock
        rounds = OutboxRounds(name: "splashboard.pings", dataDir: dataDir, work: { [weak self] in try self?.sendWaiting($0) },
                              failed: { [warn] in warn("tracking: \($0.explained)") })
    }

    /// Asks for a round of sending.
    public func wake() {
        rounds?.wake()
    }

    /// Waits until the rounds asked for so far have run.
    func finish() {
        rounds?.finish()
    }

    private func sendWaiting(_ store: CampaignStore) throws {
        // Pings found on their way were cut off by a stop (rounds run one at a time in
        // the one network process): they may have arrived, so they are not sent again.
        let expired = try store.giveUpPings(before: clock.date().addingTimeInterval(-TrackingURL.keepSeconds))
        if expired > 0 {
            warn("tracking: \(expired) pings given up (not sent in 24 hours, or cut off by a stop while on their way)")
        }
        let dropped = try store.dropWaitingPings(keeping: Self.waitingLimit)
        if dropped > 0 {
            warn("tracking: \(dropped) pings given up (more than \(Self.waitingLimit) waiting: the oldest go first)")
        }
        var failures: [String] = []
        var unanswered = 0
        for ping in try store.waitingPings(limit: Self.perRound) {
            guard let url = TrackingURL.sendable(ping.url) else {
                try store.markPing(ping.id, .givenUp)  // cannot be sent, ever
                continue
            }
            try store.markPing(ping.id, .sending)
            do {
                _ = try fetcher.fetchData(url, limit: Self.answerLimit)
                try store.markPing(ping.id, .sent)
            } catch let error as FetchError where error.neverLeft {
                // Nothing reached the tracker: it is tried again at the next round.
                try store.markPing(ping.id, .waiting)
                failures.append(error.explained)
            } catch FetchError.status, FetchError.tooLarge, FetchError.afterRedirect {
                // It answered (a redirect, whatever came of it); what it said is not used.
                try store.markPing(ping.id, .sent)
            } catch {
                // The request may have arrived (an answer too slow, a connection cut after it
                // was sent): at most once, so it is not sent again.
                try store.markPing(ping.id, .givenUp)
                unanswered += 1
            }
        }
        try store.prunePings()
        if let first = failures.first {
            warn("tracking: \(failures.count) pings not sent yet (\(TerminalText.printable(first))); tried again later")
        }
        if unanswered > 0 {
            warn("tracking: \(unanswered) pings sent without an answer; not sent again (each at most once)")
        }
    }
}
