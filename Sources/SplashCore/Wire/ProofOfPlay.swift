import FoundationEssentials

/// Proof of play as OpenTelemetry logs: every show is one log record of an OTLP/HTTP JSON
/// `ExportLogsServiceRequest`, the OpenTelemetry Collector's standard input, so any
/// collector can forward it to whatever store a fleet uses.
public enum ProofOfPlay {
    /// Shows sent in one request at the most.
    public static let batchLimit = 500
    /// Unsent shows kept at the most while the receiver cannot be reached; beyond that the
    /// oldest are given up (their ledger rows stay: they still count as shows).
    public static let unsentLimit = 100_000
    /// The journal's `MESSAGE_ID` of a show's entry (`journalctl MESSAGE_ID=…`).
    public static let journalMessageID = "6d1c2f4e8a9b4f0e9c3a5b7d2e1f0a86"

    /// The request body for `shows`, from the device `deviceID` (`service.instance.id`).
    public static func request(for shows: [ShowRecord], deviceID: String?, version: String, groups: [String] = []) -> Data {
        func attribute(_ key: String, _ value: JSONValue) -> JSONValue {
            .object([("key", .string(key)), ("value", value)])
        }
        var resource = [attribute("service.name", .object([("stringValue", .string("splashboard"))])),
                        attribute("service.version", .object([("stringValue", .string(version))]))]
        if let deviceID {
            resource.append(attribute("service.instance.id", .object([("stringValue", .string(deviceID))])))
        }
        if !groups.isEmpty {
            // The device groups it is in (`device-groups`), as an array of strings.
            resource.append(attribute("splashboard.device.groups",
                                      .object([("arrayValue", .object([("values", .array(groups.map { .object([("stringValue", .string($0))]) }))]))])))
        }
        let records: [JSONValue] = shows.map { show in
            .object([
                ("timeUnixNano", .string(unixNanos(show.shownAt))),
                ("severityNumber", .int(9)),
                ("severityText", .string("INFO")),
                ("body", .object([("stringValue", .string("show of \(show.campaignID) ended by \(show.endedBy.rawValue)"))])),
                ("attributes", .array([
                    attribute("show.id", .object([("stringValue", .string(show.showID))])),
                    attribute("campaign.id", .object([("stringValue", .string(show.campaignID.rawValue))])),
                    attribute("show.ended_by", .object([("stringValue", .string(show.endedBy.rawValue))])),
                    attribute("show.seconds", .object([("doubleValue", .double(show.seconds))])),
                    attribute("show.media", .object([("stringValue", .string(show.media.rawValue))])),
                ])),
            ])
        }
        let body: JSONValue = .object([("resourceLogs", .array([.object([
            ("resource", .object([("attributes", .array(resource))])),
            ("scopeLogs", .array([.object([
                ("scope", .object([("name", .string("splashboard")), ("version", .string(version))])),
                ("logRecords", .array(records)),
            ])])),
        ])]))])
        return Data(body.encoded().utf8)
    }

    /// The fields of a show's journal entry: the same as its log record.
    public static func journalFields(for show: ShowRecord, deviceID: String?) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("MESSAGE_ID", journalMessageID),
            ("MESSAGE", "show of \(TerminalText.printable(show.campaignID.rawValue)) ended by \(show.endedBy.rawValue) after \(String(cFormat: "%.1f", show.seconds)) s"),
            ("PRIORITY", "6"),
            ("SYSLOG_IDENTIFIER", "splashboard"),
            ("SHOW_ID", show.showID),
            ("CAMPAIGN_ID", show.campaignID.rawValue),
            ("SHOW_ENDED_BY", show.endedBy.rawValue),
            ("SHOW_SECONDS", String(cFormat: "%.3f", show.seconds)),
            ("SHOW_TIME_UNIX_NANO", unixNanos(show.shownAt)),
        ]
        if let deviceID { fields.append(("DEVICE_ID", deviceID)) }
        return fields
    }

    /// Nanoseconds since 1970 as OTLP's JSON writes 64-bit integers: a decimal string.
    static func unixNanos(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        return String(milliseconds) + "000000"
    }
}
