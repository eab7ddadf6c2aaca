import Foundation

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
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if isOffset(trimmed), let zone = TimeZone(identifier: trimmed) {
            return (zone.identifier, "\(field): \"\(name)\" is a fixed offset, which never changes for daylight saving; "
                    + "it is used, but \(example) names the place and follows its clocks")
        }
        if ambiguous.contains(trimmed.uppercased()) {
            return (nil, "\(field): \"\(name)\" is an abbreviation, and abbreviations are ambiguous (CST is both China's and "
                    + "America's Central time); use \(example); \(otherwise)")
        }
        // A name of the zone database, the old ones included (`PRC`, `Japan`).
        if TimeZone(identifier: trimmed) != nil { return (trimmed, nil) }
        if let near = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.caseInsensitiveCompare(trimmed) == .orderedSame }) {
            return (nil, "\(field): \"\(name)\" is not a zone name; is \"\(near)\" meant? \(otherwise.prefix(1).uppercased() + otherwise.dropFirst())")
        }
        return (nil, "\(field): \"\(name)\" is not a zone this device knows; use \(example); \(otherwise)")
    }

    /// Abbreviations that stand for more than one zone, which the zone library would still
    /// take as one of them.
    static let ambiguous: Set<String> = ["CST", "IST", "BST", "AST", "PST", "EDT", "CDT", "MDT", "PDT", "ADT", "SST", "GST",
                                         "ECT", "CAT", "EAT", "WAT"]

    /// `UTC+8`, `GMT-03:30`, `UTC+0530`: a sign and hours after UTC or GMT.
    private static func isOffset(_ name: String) -> Bool {
        let upper = name.uppercased()
        guard upper.hasPrefix("UTC") || upper.hasPrefix("GMT") else { return false }
        let rest = upper.dropFirst(3)
        guard let sign = rest.first, sign == "+" || sign == "-" else { return false }
        let digits = rest.dropFirst()
        return !digits.isEmpty && digits.allSatisfy { $0.isNumber || $0 == ":" }
    }
}
