import FoundationEssentials

/// A zone name from a feed (`timezone`, `screen.timezone`) read the way an operator means
/// it: a name of the zone database (`Asia/Shanghai`, `UTC`, the old `PRC`) is taken; a fixed offset (`UTC+8`,
/// `GMT+08:00`) is taken with a warning, since it never follows daylight saving; an
/// abbreviation (`CST` is China's and America's Central time) or an unknown name is left
/// out with a warning.
enum FeedZone {
    /// The zone to use (nil: none) and the warning to give about it (nil: none).
    static func read(_ raw: Any, field: String, otherwise: String) -> (zone: String?, warning: String?) {
        let example = "an IANA zone like \"Asia/Shanghai\" or \"Europe/Berlin\""
        guard let name = raw as? String else {
            return (nil, "\(field): must be \(example), got \(FeedDocument.quoted(raw)); \(otherwise)")
        }
        let trimmed = name.trimmedSpaces
        if Zone.fixedOffset(trimmed) != nil, let zone = Zone(identifier: trimmed) {
            return (zone.identifier, "\(field): \"\(name)\" is a fixed offset, which never changes for daylight saving; "
                    + "it is used, but \(example) names the place and follows its clocks")
        }
        if ambiguous.contains(trimmed.uppercased()) {
            return (nil, "\(field): \"\(name)\" is an abbreviation, and abbreviations are ambiguous (CST is both China's and "
                    + "America's Central time); use \(example); \(otherwise)")
        }
        // A name of the zone database, the old ones included (`PRC`, `Japan`).
        if Zone(identifier: trimmed) != nil { return (trimmed, nil) }
        if let near = Zone.knownIdentifiers().first(where: { $0.lowercased() == trimmed.lowercased() }) {
            return (nil, "\(field): \"\(name)\" is not a zone name; is \"\(near)\" meant? \(otherwise.prefix(1).uppercased() + otherwise.dropFirst())")
        }
        return (nil, "\(field): \"\(name)\" is not a zone this device knows; use \(example); \(otherwise)")
    }

    /// Abbreviations that stand for more than one zone, which the zone library would still
    /// take as one of them.
    static let ambiguous: Set<String> = ["CST", "IST", "BST", "AST", "PST", "EDT", "CDT", "MDT", "PDT", "ADT", "SST", "GST",
                                         "ECT", "CAT", "EAT", "WAT"]
}
