/// An IPv4 or IPv6 address as the resolver gives it (4 or 16 bytes), and whether it is
/// one that leads inside a network rather than to the internet.
public struct NetworkAddress: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The address in network byte order: 4 bytes (IPv4) or 16 (IPv6).
    public let bytes: [UInt8]

    /// Nil unless `bytes` holds 4 or 16 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// What kind of inside address this is ("loopback", "private", "link-local",
    /// "multicast", …), or nil for an address on the internet.
    public var internalKind: String? {
        if bytes.count == 4 { return Self.kind(ipv4: bytes) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return Self.kind(ipv4: Array(bytes[12...]))  // ::ffff:a.b.c.d, an IPv4 address
        }
        if bytes.allSatisfy({ $0 == 0 }) { return "unspecified" }
        if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return "loopback" }
        if bytes[0] & 0xFE == 0xFC { return "private" }  // fc00::/7, unique local
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return "link-local" }  // fe80::/10
        if bytes[0] == 0xFF { return "multicast" }
        return nil
    }

    /// Whether the address leads inside a network: loopback, private, shared (CGNAT),
    /// link-local (cloud metadata lives at 169.254.169.254), multicast, unspecified.
    public var isInternal: Bool { internalKind != nil }

    private static func kind(ipv4 b: [UInt8]) -> String? {
        switch (b[0], b[1]) {
        case (0, _): return "unspecified"
        case (10, _), (172, 16...31), (192, 168): return "private"
        case (100, 64...127): return "shared (carrier-grade NAT)"
        case (127, _): return "loopback"
        case (169, 254): return "link-local"
        case (224...239, _): return "multicast"
        case (240...255, _): return "reserved"
        default: return nil
        }
    }

    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var groups: [String] = []
        for i in stride(from: 0, to: 16, by: 2) {
            groups.append(String(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]), radix: 16))
        }
        return groups.joined(separator: ":")
    }
}
