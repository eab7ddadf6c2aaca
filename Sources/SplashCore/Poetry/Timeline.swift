import FoundationEssentials

/// Entries to show at their dates, and when to ask for more (WidgetKit's `Timeline`).
public struct Timeline<Entry: Equatable & Sendable>: Equatable, Sendable {
    /// One entry and the date it is shown from.
    public struct Item: Equatable, Sendable {
        /// When the entry becomes current.
        public var date: Date
        /// What is shown.
        public var entry: Entry

        /// `entry`, shown from `date` on.
        public init(date: Date, entry: Entry) {
            self.date = date
            self.entry = entry
        }
    }

    /// The entries, earliest first.
    public var items: [Item]
    /// When the provider is asked for more.
    public var policy: ReloadPolicy

    /// A timeline of these entries, asked again as `policy` says.
    public init(items: [Item], policy: ReloadPolicy) {
        self.items = items
        self.policy = policy
    }

    /// When the provider should be asked again, or nil for never.
    public var reloadDate: Date? {
        switch policy {
        case .atEnd: return items.last?.date
        case .after(let date): return date
        case .never: return nil
        }
    }
}
