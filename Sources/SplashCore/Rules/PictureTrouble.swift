/// Why a show's picture could not be used when its splash came (so no show was counted).
public enum PictureTrouble: Equatable, Sendable {
    /// Its file is gone from the cache: it waits, and is fetched again at once.
    case gone
    /// It does not decode, and why: its campaign is not shown.
    case undecodable(String)

    /// The trouble in words.
    public var reason: String {
        switch self {
        case .gone: return "the file is gone"
        case .undecodable(let why): return why
        }
    }
}
