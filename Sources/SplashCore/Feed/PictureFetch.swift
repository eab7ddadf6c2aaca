/// What came of fetching a poem's picture: the file it was cached as, or why there is none.
public enum PictureFetch: Equatable, Sendable {
    /// In the image cache at this path.
    case cached(path: String)
    /// Not had, and why.
    case missing(reason: String)

    /// The cached file, if there is one.
    public var path: String? {
        if case .cached(let path) = self { return path }
        return nil
    }

    /// Why there is no picture, if there is none.
    public var reason: String? {
        if case .missing(let reason) = self { return reason }
        return nil
    }
}
