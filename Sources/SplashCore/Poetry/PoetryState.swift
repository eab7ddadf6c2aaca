/// The poetry panel's timeline as the kiosk runs it: the entry on the panel, the
/// entries still to come, when the provider is asked again, and the picture loading.
public struct PoetryState: Equatable, Sendable {
    /// An entry and the moment (run clock) it becomes current.
    public struct Scheduled: Equatable, Sendable {
        /// When it becomes current, on the run clock.
        public var at: Seconds
        /// The entry to show then.
        public var entry: PoetryEntry
    }

    /// The entry on the panel.
    public var entry: PoetryEntry
    /// The entries still to come, in the timeline's order.
    public var upcoming: [Scheduled] = []
    /// When the provider is asked again (nil: never, or while it is being asked).
    public var reloadAt: Seconds?
    /// The provider is being asked.
    public var loading = false
    /// Failed reloads in a row.
    public var failures = 0
    /// The picture being fetched, if any.
    public var imageLoading: String?
    /// The spinner's step while a picture loads with none to show yet.
    public var spinnerPhase = 0
    /// When the spinner steps next.
    public var spinnerStepAt: Seconds = 0
    /// The refresh period, the cap of the retry backoff.
    public var refresh: Seconds
    /// Where a poem comes from when the live provider has given nothing yet.
    public var fallback: BundledPoetryProvider?

    /// The panel showing `entry`, with nothing scheduled and nothing loading.
    public init(entry: PoetryEntry = .placeholder, refresh: Seconds, fallback: BundledPoetryProvider? = nil) {
        self.entry = entry
        self.refresh = refresh
        self.fallback = fallback
    }

    /// Nothing is on its way: the panel shows what it will keep showing.
    public var settled: Bool { !loading && imageLoading == nil }

    /// A spinner turns in the picture's place.
    public var spinning: Bool { imageLoading != nil && entry.imagePath == nil }

    /// Spinner steps per second.
    public static let spinnerRate: Seconds = 12

    /// The next moment the panel changes by itself; the spinner counts only while the
    /// panel is on the screen.
    public func nextDeadline(onScreen: Bool) -> Seconds? {
        var candidates: [Seconds] = upcoming.prefix(1).map(\.at)
        if !loading, let reloadAt { candidates.append(reloadAt) }
        if spinning, onScreen { candidates.append(spinnerStepAt) }
        return candidates.min()
    }
}
