import FoundationEssentials

/// What the poetry panel shows: the origin (the poem's title) in bold, the poem's lines,
/// the author, and a picture — a cached file, one still loading from `imageURL`, or
/// none (a drawn emblem).
public struct PoetryEntry: Equatable, Sendable {
    /// The poem's title, shown in bold.
    public var origin: String
    /// The poet, when known.
    public var author: String?
    /// The poem's lines, one verse each.
    public var lines: [String]
    /// The picture on disk, when there is one.
    public var imagePath: String?
    /// Where the picture comes from, when it is fetched.
    public var imageURL: URL?
    /// Where the entry comes from: the placeholder, the live provider, the cache or the
    /// bundled poems.
    public var source: PoetrySource

    /// An entry with these parts as given; `capped` holds it to the poem's limits.
    public init(origin: String, author: String? = nil, lines: [String], imagePath: String? = nil, imageURL: URL? = nil,
                source: PoetrySource) {
        self.origin = origin
        self.author = author
        self.lines = lines
        self.imagePath = imagePath
        self.imageURL = imageURL
        self.source = source
    }

    /// Shown at once, before any provider has answered.
    public static let placeholder = PoetryEntry(
        origin: "今日诗词", lines: ["我要傍近你", "方不至于难过"], source: .placeholder
    )

    /// `entry` within the poem's limits, whoever stored or sent it: the origin and author
    /// cut to 200 characters, the lines to 2,000 characters in all.
    public static func capped(_ entry: PoetryEntry) -> PoetryEntry {
        var entry = entry
        entry.origin = String(entry.origin.prefix(Poem.maxField))
        entry.author = entry.author.map { String($0.prefix(Poem.maxField)) }
        var room = Poem.maxContent
        entry.lines = entry.lines.compactMap { line in
            guard room > 0 else { return nil }
            let kept = String(line.prefix(room))
            room -= kept.count
            return kept
        }
        return entry
    }

    /// A poem's text as lines, one per verse: a line ends after ，。！？；, as classical
    /// poems are set.
    public static func lines(of content: String) -> [String] {
        var lines: [String] = []
        var current = ""
        for ch in content {
            if ch == "\n" || ch == "/" {
                if !current.isEmpty { lines.append(current) }
                current = ""
                continue
            }
            current.append(ch)
            if "，。！？；!?".contains(ch) {
                lines.append(current)
                current = ""
            }
        }
        let rest = current.trimmedSpaces
        if !rest.isEmpty { lines.append(rest) }
        return lines.map { $0.trimmedSpaces }.filter { !$0.isEmpty }
    }
}
