import FoundationEssentials

/// An ad network's tracking URL (`impressionUrls`, `clickUrls`) with the macros `{device}`,
/// `{campaign}`, `{show}` and `{ts}` (Unix milliseconds), each URL-encoded when it is
/// substituted.
public enum TrackingURL {
    /// URLs kept per campaign and kind at the most.
    public static let perCampaign = 10
    /// The longest template kept, in characters.
    public static let maxLength = 2048
    /// How long a ping that cannot be sent is kept.
    public static let keepSeconds: TimeInterval = 24 * 3600

    /// The longest device id a URL is checked with: ids longer than this are cut to it
    /// where they fill `{device}`.
    public static let maxDevice = 128

    /// Why `text` cannot be a URL the kiosk reads, or nil: longer than `maxLength`, or
    /// holding a control character (a line break would let one entry carry a second URL
    /// past every check made on the first).
    public static func textProblem(_ text: String) -> String? {
        guard text.utf8.count <= maxLength else { return "is \(text.utf8.count) bytes long; a URL may have \(maxLength) at the most" }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return "holds a control character such as a line break"
        }
        return nil
    }

    /// Why `template` is not a tracking URL for `campaign`, or nil when it is one: http
    /// or https with a host once its macros are filled in, and no longer than `maxLength`
    /// filled in with this campaign's id and the longest device id and show id.
    public static func problem(_ template: String, campaign: String = "c") -> String? {
        if let problem = textProblem(template) { return problem }
        guard httpURL(expand(template, device: "d", campaign: "c", show: "s", timestamp: 0)) != nil else {
            return "is not an http or https URL"
        }
        let longest = expand(template, device: String(repeating: "d", count: maxDevice), campaign: campaign,
                             show: UUID().uuidString, timestamp: Int64.max)
        guard longest.utf8.count <= maxLength else {
            return "is \(longest.utf8.count) bytes long once its macros are filled in; a URL may have \(maxLength) at the most"
        }
        return nil
    }

    /// Whether `url` may be sent as a ping: http or https, no control character, no longer
    /// than `maxLength` — checked again where pings are read, whoever wrote them.
    public static func sendable(_ url: String) -> URL? {
        textProblem(url) == nil ? httpURL(url) : nil
    }

    /// `text` as an http or https URL with a host, or nil.
    static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else { return nil }
        return url
    }

    /// `template` with its macros filled in.
    public static func expand(_ template: String, device: String, campaign: String, show: String, timestamp: Date) -> String {
        expand(template, device: device, campaign: campaign, show: show,
               timestamp: Int64((timestamp.timeIntervalSince1970 * 1000).rounded()))
    }

    static func expand(_ template: String, device: String, campaign: String, show: String, timestamp: Int64) -> String {
        guard template.contains("{") else { return template }
        return template
            .replacing("{device}", with: encode(String(device.prefix(maxDevice))))
            .replacing("{campaign}", with: encode(campaign))
            .replacing("{show}", with: encode(show))
            .replacing("{ts}", with: String(timestamp))
    }

    /// A value as a URL's query or path may carry it: everything but the unreserved
    /// characters percent-encoded.
    static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "-._~".contains(c) {
                out.append(c)
            } else {
                out += String(cFormat: "%%%02X", UInt32(byte))
            }
        }
        return out
    }
}
