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
        let b = bytes
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF {
            return Self.kind(ipv4: Array(b[12...]))  // ::ffff:a.b.c.d, an IPv4 address
        }
        if b.allSatisfy({ $0 == 0 }) { return "unspecified" }
        if b[0..<15].allSatisfy({ $0 == 0 }), b[15] == 1 { return "loopback" }
        // ::a.b.c.d (IPv4-compatible, deprecated): the IPv4 address it carries, else reserved.
        if b[0..<12].allSatisfy({ $0 == 0 }) { return Self.kind(ipv4: Array(b[12...])) ?? "reserved" }
        // 64:ff9b::/96, NAT64's well-known prefix: where it leads is the IPv4 address inside.
        if b[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return Self.kind(ipv4: Array(b[12...])) }
        // 64:ff9b:1::/48, NAT64 for local use.
        if b[0..<6] == [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01] { return "private" }
        // 2002::/16, 6to4: the IPv4 address in its next 32 bits.
        if b[0] == 0x20, b[1] == 0x02 { return Self.kind(ipv4: Array(b[2..<6])) }
        // 2001:db8::/32, documentation; 2001::/23, the IETF's protocol assignments (Teredo among them).
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return "documentation" }
        if b[0] == 0x20, b[1] == 0x01, b[2] & 0xFE == 0x00 { return "special-purpose" }
        // 100::/64, discard-only.
        if b[0] == 0x01, b[1] == 0x00, b[2..<8].allSatisfy({ $0 == 0 }) { return "reserved" }
        if b[0] & 0xFE == 0xFC { return "private" }  // fc00::/7, unique local
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return "link-local" }  // fe80::/10
        if b[0] == 0xFE, b[1] & 0xC0 == 0xC0 { return "private" }  // fec0::/10, site-local (deprecated)
        if b[0] == 0xFF { return "multicast" }
        return nil
    }

    /// Whether the address leads inside a network: loopback, private, shared (CGNAT),
    /// link-local (cloud metadata lives at 169.254.169.254), multicast, unspecified.
    public var isInternal: Bool { internalKind != nil }

    /// IANA's IPv4 special-purpose address registry, less what is globally reachable.
    private static func kind(ipv4 b: [UInt8]) -> String? {
        switch (b[0], b[1], b[2]) {
        case (0, _, _): return "unspecified"
        case (10, _, _), (172, 16...31, _), (192, 168, _): return "private"
        case (100, 64...127, _): return "shared (carrier-grade NAT)"
        case (127, _, _): return "loopback"
        case (169, 254, _): return "link-local"
        case (192, 0, 0): return "special-purpose"
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): return "documentation"
        case (192, 88, 99): return "reserved"  // the former 6to4 relay anycast
        case (198, 18...19, _): return "benchmarking"
        case (224...239, _, _): return "multicast"
        case (240...255, _, _): return "reserved"
        default: return nil
        }
    }

    /// Dotted decimal for IPv4. IPv6 as inet_ntop and `ip addr` write it (RFC 5952):
    /// `::1`, `fe80::1`, `::ffff:10.0.0.1`.
    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return "::ffff:" + bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 16, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        let run = Self.longestZeroRun(groups)
        if run.start == 0, run.count == 6 {
            return "::" + bytes[12...].map(String.init).joined(separator: ".")  // IPv4-compatible, deprecated
        }
        guard run.count >= 2 else { return groups.map { String($0, radix: 16) }.joined(separator: ":") }
        let head = groups[..<run.start].map { String($0, radix: 16) }.joined(separator: ":")
        let tail = groups[(run.start + run.count)...].map { String($0, radix: 16) }.joined(separator: ":")
        return head + "::" + tail
    }

    /// The first of the longest runs of zero groups.
    private static func longestZeroRun(_ groups: [UInt16]) -> (start: Int, count: Int) {
        var best = (start: 0, count: 0)
        var i = 0
        while i < groups.count {
            var j = i
            while j < groups.count, groups[j] == 0 { j += 1 }
            if j - i > best.count { best = (i, j - i) }
            i = j + 1
        }
        return best
    }
}
