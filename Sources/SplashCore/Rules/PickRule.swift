import FoundationEssentials

/// How the kiosk chooses among the eligible campaigns of the top priority (`--pick`).
public enum PickRule: String, CaseIterable, Sendable {
    /// The newest (latest `updatedAt`, else later in the feed): the seed's rule.
    case newest
    /// In turn, like a playlist: the least recently shown first.
    case rotate
}
