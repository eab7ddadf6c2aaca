import Foundation

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

    /// Why `template` is not a tracking URL, or nil when it is one: http or https with a
    /// host once its macros are filled in.
    public static func problem(_ template: String) -> String? {
        guard template.count <= maxLength else { return "is longer than \(maxLength) characters" }
        // A line break would let one entry carry a second URL past these checks.
        guard !template.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return "holds a control character such as a line break"
        }
        let sample = expand(template, device: "d", campaign: "c", show: "s", timestamp: 0)
        guard let url = URL(string: sample), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty
        else { return "is not an http or https URL" }
        return nil
    }

    /// `template` with its macros filled in.
    public static func expand(_ template: String, device: String, campaign: String, show: String, timestamp: Date) -> String {
        expand(template, device: device, campaign: campaign, show: show,
               timestamp: Int64((timestamp.timeIntervalSince1970 * 1000).rounded()))
    }

    static func expand(_ template: String, device: String, campaign: String, show: String, timestamp: Int64) -> String {
        guard template.contains("{") else { return template }
        return template
            .replacingOccurrences(of: "{device}", with: encode(device))
            .replacingOccurrences(of: "{campaign}", with: encode(campaign))
            .replacingOccurrences(of: "{show}", with: encode(show))
            .replacingOccurrences(of: "{ts}", with: String(timestamp))
    }

    /// A value as a URL's query or path may carry it: everything but the unreserved
    /// characters percent-encoded.
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
