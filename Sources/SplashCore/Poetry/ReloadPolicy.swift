import FoundationEssentials

/// When a timeline provider is asked again (WidgetKit's `TimelineReloadPolicy`).
public enum ReloadPolicy: Equatable, Sendable {
    /// After the last entry's date.
    case atEnd
    /// At this date.
    case after(Date)
    /// Not by itself.
    case never
}
