import Foundation

/// The default poetry provider and the offline fallback: it rotates through the bundled
/// poems, a new one every `refresh` seconds, the same one for everybody at the same time.
/// Its timeline holds the next twelve entries and is reloaded at its end.
public struct BundledPoetryProvider: TimelineProvider, Equatable, Sendable {
    public let poems: [Poem]
    public let refresh: TimeInterval

    public init(poems: [Poem], refresh: TimeInterval) {
        self.poems = poems
        self.refresh = max(1, refresh)
    }

    public func placeholder() -> PoetryEntry { .placeholder }

    /// The poem for the refresh period that contains `date`.
    public func snapshot(at date: Date) -> PoetryEntry {
        guard !poems.isEmpty else { return .placeholder }
        let slot = Int((date.timeIntervalSince1970 / refresh).rounded(.down))
        let index = ((slot % poems.count) + poems.count) % poems.count
        return poems[index].entry(source: .bundled)
    }

    public func timeline(at date: Date) -> Timeline<PoetryEntry> {
        let start = (date.timeIntervalSince1970 / refresh).rounded(.down) * refresh
        var items = [Timeline<PoetryEntry>.Item(date: date, entry: snapshot(at: date))]
        for i in 1...11 {
            let at = Date(timeIntervalSince1970: start + Double(i) * refresh)
            items.append(.init(date: at, entry: snapshot(at: at)))
        }
        return Timeline(items: items, policy: .atEnd)
    }

    public func timeline(at date: Date, completion: @escaping (Result<Timeline<PoetryEntry>, Error>) -> Void) {
        completion(.success(timeline(at: date)))
    }
}
