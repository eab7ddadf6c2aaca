import CSQLite
import FoundationEssentials
import SplashCore

/// The last good poem, kept so that it is on the screen at the next start.
extension CampaignStore {
    /// Keeps `entry` as the last good poem, shown at the next start.
    public func savePoetry(_ entry: PoetryEntry, at date: Date) throws {
        try db.execute("""
        INSERT INTO poetry (slot, origin, author, content, image_path, fetched_at) VALUES (1, ?, ?, ?, ?, ?)
        ON CONFLICT (slot) DO UPDATE SET origin = excluded.origin, author = excluded.author,
            content = excluded.content, image_path = excluded.image_path, fetched_at = excluded.fetched_at
        """, [.text(entry.origin), .optional(entry.author), .text(Self.encodeList(entry.lines) ?? "[]"),
              .optional(entry.imagePath), .date(date)])
    }

    /// The last good poem, marked as coming from the cache; its picture only if still on disk.
    public func loadPoetry(imageURL: URL?) throws -> PoetryEntry? {
        guard let r = try db.rows("SELECT origin, author, content, image_path FROM poetry WHERE slot = 1").first,
              let origin = try r["origin"].text, let content = try r["content"].text
        else { return nil }
        let path = try r["image_path"].text.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        return PoetryEntry(origin: origin, author: try r["author"].text, lines: Self.decodeList(content),
                           imagePath: path, imageURL: imageURL, source: .cache)
    }
}
