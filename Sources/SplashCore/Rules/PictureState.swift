/// What this device has of a campaign's picture: cached, waiting for a sync, or refused —
/// one of the three, never two at once (a refused picture may still have its file).
public enum PictureState: Equatable, Sendable {
    /// Cached and checked: the file at `path`.
    case cached(path: String)
    /// Not cached yet, and why (`CatalogEntry.notCached` when nothing more is known).
    case waiting(String)
    /// Refused for what it is, and why: not shown until a sync brings a fixed one. `path`:
    /// its file, when one is still in the cache (`campaigns` says it is cached).
    case refused(String, path: String?)
}
