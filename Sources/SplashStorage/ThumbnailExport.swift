import FoundationEssentials

/// Writes stored thumbnails as JPEG files for remote support. File names come from the
/// position and a cleaned-up id (letters, digits, `-`, `_`, `.` only), so nothing in a
/// feed can choose a path outside the folder.
public enum ThumbnailExport {
    /// Writes `NN-<id>.jpg` for every campaign with a thumbnail; returns the file names.
    public static func write(_ campaigns: [CampaignStore.StoredCampaign], to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var names: [String] = []
        for (index, stored) in campaigns.enumerated() {
            guard let thumbnail = stored.thumbnail else { continue }
            let name = String(cFormat: "%02d-", index + 1) + fileName(for: stored.campaign.id.rawValue) + ".jpg"
            try Data(thumbnail).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name), options: .atomic)
            names.append(name)
        }
        return names
    }

    /// The id reduced to safe characters, at most 60 of them.
    static func fileName(for id: String) -> String {
        let safe = id.unicodeScalars.map { c -> Character in
            c.isASCII && (Character(c).isLetter || Character(c).isNumber || "-_.".unicodeScalars.contains(c)) ? Character(c) : "_"
        }
        var name = String(String(safe).prefix(60))
        while name.hasPrefix(".") { name = "_" + name.dropFirst() }
        return name.isEmpty ? "campaign" : name
    }
}
