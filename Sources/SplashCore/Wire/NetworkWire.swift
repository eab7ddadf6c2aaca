import FoundationEssentials

/// Encoding and decoding of the lines on the socket between the two processes.
public enum NetworkWire {
    /// The longest line either side accepts; a longer one ends the connection.
    public static let lineLimit = 4 << 20
    /// A sync report carries at most this many warnings and picture errors each over the
    /// socket; the rest are counted in one last line (`splashboard sync` prints them all).
    public static let reportLines = 200

    /// One message as a line, newline included.
    public static func line<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        var data = (try? encoder.encode(value)) ?? Data("{}".utf8)  // plain structs: cannot fail
        data.append(0x0A)
        return data
    }

    /// One message from a line (without its newline).
    public static func decode<T: Decodable>(_ type: T.Type, from line: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(type, from: line)
    }

    /// The longest line of a report kept by the display.
    public static let reportLineLength = 1000

    /// `report` as the display takes it from the network process, which it trusts no more
    /// than the network: counts not below 0, at most `reportLines` lines of at most
    /// `reportLineLength` characters each, an error of at most that length.
    public static func checked(_ report: SyncReport) -> SyncReport {
        var report = trimmed(report)
        func cut(_ text: String) -> String { text.count <= reportLineLength ? text : String(text.prefix(reportLineLength)) + "…" }
        report.campaigns = max(0, report.campaigns)
        report.warnings = report.warnings.prefix(reportLines + 1).map(cut)
        report.pictureErrors = report.pictureErrors.prefix(reportLines + 1).map(cut)
        report.error = report.error.map(cut)
        if let ms = report.milliseconds, !(ms.isFinite && ms >= 0) { report.milliseconds = nil }
        return report
    }

    /// `report` with its warnings and picture errors cut to `reportLines` each.
    public static func trimmed(_ report: SyncReport) -> SyncReport {
        func cut(_ lines: [String], _ what: String) -> [String] {
            guard lines.count > reportLines else { return lines }
            return Array(lines.prefix(reportLines)) + ["… and \(lines.count - reportLines) more \(what)"]
        }
        var report = report
        report.warnings = cut(report.warnings, "warnings")
        report.pictureErrors = cut(report.pictureErrors, "picture errors")
        return report
    }
}
