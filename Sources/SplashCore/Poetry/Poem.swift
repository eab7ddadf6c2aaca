import FoundationEssentials

/// A poem in the jinrishici v1 shape: `{"content", "origin", "author", "category"}`
/// (author and category optional).
public struct Poem: Codable, Equatable, Sendable {
    /// The poem's text; the panel splits it into verses (`PoetryEntry.lines(of:)`).
    public var content: String
    /// The poem's title.
    public var origin: String
    /// The poet, when known.
    public var author: String?
    /// The source's classification of the poem, when it gives one.
    public var category: String?

    /// A poem with these fields as given; `checked()` holds it to the limits.
    public init(content: String, origin: String, author: String? = nil, category: String? = nil) {
        self.content = content
        self.origin = origin
        self.author = author
        self.category = category
    }

    /// Limits that keep a hostile answer from filling the panel or memory.
    static let maxContent = 2000
    static let maxField = 200

    /// Decodes one poem; throws `PoemError` naming what is wrong.
    public static func decode(_ data: Data) throws -> Poem {
        guard let object = (try? JSONReader.value(data)) as? [String: Any] else {
            throw PoemError.notAPoem("the answer is not a JSON object")
        }
        return try decode(object)
    }

    static func decode(_ object: [String: Any]) throws -> Poem {
        guard let content = object["content"] as? String,
              !content.trimmed.isEmpty else {
            throw PoemError.notAPoem("\"content\" is missing or empty")
        }
        guard let origin = object["origin"] as? String, !origin.isEmpty else {
            throw PoemError.notAPoem("\"origin\" is missing or empty")
        }
        guard content.count <= maxContent, origin.count <= maxField else {
            throw PoemError.notAPoem("the poem is longer than \(maxContent) characters")
        }
        func optional(_ key: String) -> String? {
            (object[key] as? String).flatMap { $0.isEmpty ? nil : String($0.prefix(maxField)) }
        }
        return Poem(content: content, origin: origin, author: optional("author"), category: optional("category"))
    }

    /// This poem if it is within the limits a fetched one is held to (a poem that came
    /// over the socket from the network process is checked again); else why not.
    public func checked() throws -> Poem {
        var object: [String: Any] = ["content": content, "origin": origin]
        object["author"] = author
        object["category"] = category
        return try Self.decode(object)
    }

    /// Decodes the bundled collection: a JSON list of poems.
    public static func decodeList(_ data: Data) throws -> [Poem] {
        guard let list = (try? JSONReader.value(data)) as? [[String: Any]] else {
            throw PoemError.notAPoem("the poem list is not a JSON list of objects")
        }
        return try list.map(decode)
    }

    /// The panel entry for this poem.
    public func entry(source: PoetrySource, imageURL: URL? = nil) -> PoetryEntry {
        PoetryEntry(origin: origin, author: author, lines: PoetryEntry.lines(of: content), imageURL: imageURL, source: source)
    }

    /// The live provider's timeline for this poem fetched at `date`: one entry, reloaded
    /// `refresh` seconds later.
    public func timeline(imageURL: URL?, at date: Date, refresh: TimeInterval) -> Timeline<PoetryEntry> {
        Timeline(items: [.init(date: date, entry: entry(source: .timeline, imageURL: imageURL))],
                 policy: .after(date.addingTimeInterval(refresh)))
    }
}
