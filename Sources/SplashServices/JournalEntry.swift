import FoundationEssentials
import Glibc

/// Structured entries for systemd's journal, written with its native protocol (one
/// datagram on its socket, fields as `KEY=value` lines; a value with a newline in the
/// length-prefixed form), so a fleet that ships journals (`systemd-journal-upload`) gets
/// each show as one entry with its own fields. Nothing happens where there is no journal.
public struct JournalEntry {
    /// The journal's socket: `$SPLASHBOARD_JOURNAL_SOCKET` (tests), else systemd's.
    public static func socketPath(environment: [String: String]) -> String {
        environment["SPLASHBOARD_JOURNAL_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/systemd/journal/socket"
    }

    /// The datagram for `fields`.
    public static func datagram(_ fields: [(String, String)]) -> Data {
        var data = Data()
        for (key, value) in fields {
            data.append(contentsOf: Array(key.utf8))
            let bytes = Array(value.utf8)
            if bytes.contains(0x0A) {
                data.append(0x0A)
                var length = UInt64(bytes.count).littleEndian
                withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
                data.append(contentsOf: bytes)
            } else {
                data.append(UInt8(ascii: "="))
                data.append(contentsOf: bytes)
            }
            data.append(0x0A)
        }
        return data
    }

    /// Sends one entry; returns whether the journal took it (the ledger is the record: an
    /// entry that could not be written is not retried).
    @discardableResult
    public static func send(_ fields: [(String, String)], to path: String) -> Bool {
        UnixSocket.sendDatagram(datagram(fields), to: path)
    }
}
