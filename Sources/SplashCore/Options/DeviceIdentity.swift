import FoundationEssentials

/// Who this kiosk is to a fleet (`device-id`): by default an id derived from the machine id
/// with an application-specific key, as systemd's `sd_id128_get_machine_app_specific` does
/// (`systemd-id128 machine-id --app-specific=…` prints the same), so the raw machine id,
/// which other programs use, never leaves the device.
public enum DeviceIdentity {
    /// Splashboard's application id for the derivation (a fixed random 128-bit value).
    public static let applicationID = "4f3a9c1e6b2d48a7a5e0c3d9b8f17e26"

    /// The application-specific id for `machineID` (the 32 hex digits of /etc/machine-id):
    /// HMAC-SHA256 keyed with the machine id over the application id, its first 16 bytes
    /// made a version-4 UUID, as 32 lowercase hex digits. Nil when `machineID` is not one.
    public static func applicationSpecific(machineID: String) -> String? {
        guard let key = bytes(ofHex: machineID.trimmed),
              let message = bytes(ofHex: applicationID)
        else { return nil }
        var id = Array(hmacSHA256(key: key, message: message).prefix(16))
        id[6] = (id[6] & 0x0F) | 0x40
        id[8] = (id[8] & 0x3F) | 0x80
        return id.map { String(cFormat: "%02x", $0) }.joined()
    }

    /// Whether `id` may be a device id given by hand: 1 to 64 letters, digits, `.`, `_`,
    /// `-` or `:` (it goes into file names, metrics labels and reports).
    public static func isValid(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-:".unicodeScalars.contains($0)
        }
    }

    /// RFC 2104 HMAC with SHA-256.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        return digest(block.map { $0 ^ 0x5C } + digest(block.map { $0 ^ 0x36 } + message))
    }

    private static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finalize()
    }

    /// The 16 bytes written as 32 hex digits, or nil.
    private static func bytes(ofHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == 32 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }
}
