import FoundationEssentials

/// The default poetry provider and the offline fallback: it rotates through the bundled
/// poems, a new one every `refresh` seconds, the same one for everybody at the same time.
/// Its timeline holds the next twelve entries and is reloaded at its end.
public struct BundledPoetryProvider: TimelineProvider, Equatable, Sendable {
    /// The bundled poems, in the order they take turns.
    public let poems: [Poem]
    /// Seconds each poem stays on the panel, 1 at the least.
    public let refresh: TimeInterval

    /// A provider that rotates through `poems`, a new one every `refresh` seconds (1 at
    /// the least).
    public init(poems: [Poem], refresh: TimeInterval) {
        self.poems = poems
        self.refresh = max(1, refresh)
    }

    /// The fixed entry shown before any poem is chosen.
    public func placeholder() -> PoetryEntry { .placeholder }

    /// The poem for the refresh period that contains `date`.
    public func snapshot(at date: Date) -> PoetryEntry {
        guard !poems.isEmpty else { return .placeholder }
        let slot = Int((date.timeIntervalSince1970 / refresh).rounded(.down))
        let index = ((slot % poems.count) + poems.count) % poems.count
        return poems[index].entry(source: .bundled)
    }

    /// Twelve entries: the poem at `date`, then the next eleven at the starts of the
    /// following refresh periods; reloaded after the last.
    public func timeline(at date: Date) -> Timeline<PoetryEntry> {
        let start = (date.timeIntervalSince1970 / refresh).rounded(.down) * refresh
        var items = [Timeline<PoetryEntry>.Item(date: date, entry: snapshot(at: date))]
        for i in 1...11 {
            let at = Date(timeIntervalSince1970: start + Double(i) * refresh)
            items.append(.init(date: at, entry: snapshot(at: at)))
        }
        return Timeline(items: items, policy: .atEnd)
    }

    /// The same timeline, handed to `completion` at once; it never fails.
    public func timeline(at date: Date, completion: @escaping (Result<Timeline<PoetryEntry>, Error>) -> Void) {
        completion(.success(timeline(at: date)))
    }
}
