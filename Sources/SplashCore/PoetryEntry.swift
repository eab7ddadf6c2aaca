/// What the poetry panel shows: a title line in bold, the poem's lines, and optionally a
/// picture (a local file).
public struct PoetryEntry: Equatable, Sendable {
    public var origin: String
    public var author: String?
    public var lines: [String]
    public var imagePath: String?
    public var source: PoetrySource

    public init(origin: String, author: String? = nil, lines: [String], imagePath: String? = nil, source: PoetrySource) {
        self.origin = origin
        self.author = author
        self.lines = lines
        self.imagePath = imagePath
        self.source = source
    }

    /// Shown at once, before any provider has answered.
    public static let placeholder = PoetryEntry(
        origin: "今日诗词", lines: ["我要傍近你", "方不至于难过"], source: .placeholder
    )
}
