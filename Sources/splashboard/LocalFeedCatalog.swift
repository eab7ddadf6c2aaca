import Foundation
import SplashCore

/// Reads a feed from a file URL and turns it into a catalog whose images are the local
/// files the feed points to.
enum LocalFeedCatalog {
    struct Loaded {
        var catalog: [CatalogEntry]
        var message: String?
        var warnings: [String]
    }

    static let maxFeedBytes = 1 << 20

    static func load(_ url: URL) throws -> Loaded {
        guard url.isFileURL else {
            return Loaded(catalog: [], message: nil,
                          warnings: ["the feed \(url.absoluteString) is not a file; network feeds are not read yet"])
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        defer { try? handle.close() }
        let data = handle.readData(ofLength: maxFeedBytes + 1)
        guard data.count <= maxFeedBytes else {
            throw FeedError.wrongShape("a document over 1 MiB")
        }
        let document = try FeedDocument.decode(data, from: url)
        let catalog = document.campaigns.map { campaign -> CatalogEntry in
            let path = campaign.picURL.isFileURL ? campaign.picURL.path : nil
            let present = path.map { FileManager.default.fileExists(atPath: $0) } ?? false
            return CatalogEntry(campaign: campaign, imagePath: present ? path : nil)
        }
        return Loaded(catalog: catalog, message: document.message, warnings: document.warnings)
    }
}
