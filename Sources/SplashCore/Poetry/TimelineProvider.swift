import FoundationEssentials

/// A source of widget entries with WidgetKit's shape: an instant placeholder, a quick
/// snapshot, and a timeline that may take time (network) and reports through `completion`.
public protocol TimelineProvider<Entry> {
    associatedtype Entry: Equatable & Sendable

    /// Shown at once, before anything is known.
    func placeholder() -> Entry
    /// A representative entry, without waiting.
    func snapshot(at date: Date) -> Entry
    /// Entries from `date` on; `completion` may be called on another thread.
    func timeline(at date: Date, completion: @escaping (Result<Timeline<Entry>, Error>) -> Void)
}
