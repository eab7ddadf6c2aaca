import FoundationEssentials

/// The campaigns this device knows and what came with them: each entry with its shows and
/// pictures, the feed's default detail text, the newest `updatedAt` seen, and the pictures
/// that failed and were said so. Changed only by `CatalogRules`.
public struct CatalogState: Equatable, Sendable {
    /// The campaigns, with their shows and pictures.
    public var entries: [CatalogEntry] = []
    /// The feed's default detail text.
    public var feedMessage: String?
    /// The latest `updatedAt` seen in a catalog: a wall clock before it is not trusted.
    public var newestUpdatedAt: Date?
    /// Pictures that failed to decode and were said so (each is said once).
    public var failedImages: Set<String> = []

    /// A catalog with nothing in it yet.
    public init() {}
}
