import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import SplashCore

@Suite struct NetworkAddressTests {
    func v4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> NetworkAddress { NetworkAddress(bytes: [a, b, c, d])! }
    func v6(_ prefix: [UInt8], last: UInt8 = 1) -> NetworkAddress {
        NetworkAddress(bytes: prefix + [UInt8](repeating: 0, count: 15 - prefix.count) + [last])!
    }

    @Test func insideAddressesAreNamed() {
        #expect(v4(127, 0, 0, 1).internalKind == "loopback")
        #expect(v4(10, 1, 2, 3).internalKind == "private")
        #expect(v4(172, 16, 0, 1).internalKind == "private")
        #expect(v4(172, 31, 255, 1).internalKind == "private")
        #expect(v4(192, 168, 1, 10).internalKind == "private")
        #expect(v4(169, 254, 169, 254).internalKind == "link-local")
        #expect(v4(100, 64, 0, 1).internalKind != nil)
        #expect(v4(224, 0, 0, 251).internalKind == "multicast")
        #expect(v4(0, 0, 0, 0).internalKind == "unspecified")
        #expect(v6([], last: 1).internalKind == "loopback")
        #expect(v6([], last: 0).internalKind == "unspecified")
        #expect(v6([0xFD, 0x12]).internalKind == "private")
        #expect(v6([0xFE, 0x80]).internalKind == "link-local")
        #expect(v6([0xFF, 0x02]).internalKind == "multicast")
        // IANA's special-purpose registries, whole: what NAT64, 6to4 and IPv4-compatible
        // addresses carry, site-local, documentation, benchmarking, protocol assignments.
        let nat64 = NetworkAddress(bytes: [0x00, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8) + [10, 0, 0, 1])!
        #expect(nat64.internalKind == "private")
        #expect(v6([0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01]).internalKind == "private")
        #expect(v6([0x20, 0x02, 127, 0, 0, 1]).internalKind == "loopback")
        #expect(NetworkAddress(bytes: [UInt8](repeating: 0, count: 12) + [192, 168, 0, 1])!.internalKind == "private")
        #expect(v6([0xFE, 0xC0]).internalKind == "private")
        #expect(v6([0x20, 0x01, 0x0D, 0xB8]).internalKind == "documentation")
        #expect(v6([0x20, 0x01, 0x00, 0x00]).internalKind == "special-purpose")
        #expect(v6([0x01, 0x00]).internalKind == "reserved")
        #expect(v4(192, 0, 0, 8).internalKind == "special-purpose")
        #expect(v4(198, 18, 0, 1).internalKind == "benchmarking" && v4(198, 19, 255, 1).internalKind == "benchmarking")
        #expect(v4(203, 0, 113, 7).internalKind == "documentation")
        // An IPv4 address written as IPv6 is what it is in IPv4.
        #expect(NetworkAddress(bytes: [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 10, 0, 0, 7])!.internalKind == "private")
    }

    @Test func internetAddressesAreNot() {
        for a in [v4(8, 8, 8, 8), v4(172, 32, 0, 1), v4(172, 15, 0, 1), v4(192, 169, 0, 1), v4(100, 128, 0, 1),
                  v4(1, 1, 1, 1), v6([0x24, 0x08, 0x80, 0x00]), v6([0x20, 0x02, 8, 8, 8, 8]),
                  NetworkAddress(bytes: [0x00, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8) + [8, 8, 4, 4])!,
                  v4(198, 20, 0, 1), v4(192, 0, 1, 1)] {
            #expect(!a.isInternal, "\(a)")
        }
        #expect(NetworkAddress(bytes: [1, 2, 3]) == nil)
        #expect(v4(192, 168, 1, 10).description == "192.168.1.10")
        #expect(v6([0xFE, 0x80]).description == "fe80::1")
        #expect(v6([]).description == "::1")
    }

    /// IPv6 is written as the C library writes it (RFC 5952): zero runs, ties, mapped IPv4.
    @Test func ipv6IsWrittenAsInetNtopWritesIt() {
        var generator = SystemRandomNumberGenerator()
        var samples: [[UInt8]] = [[UInt8](repeating: 0, count: 16), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 10, 0, 0, 1],
                                  [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1],
                                  [0x20, 0x01, 0x0D, 0xB8, 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1]]
        for _ in 0..<2000 {
            // Mostly zero groups, so runs of every length and place come up.
            samples.append((0..<8).flatMap { _ -> [UInt8] in
                Int.random(in: 0..<3, using: &generator) == 0 ? [UInt8.random(in: 0...255, using: &generator), 1] : [0, 0]
            })
        }
        for bytes in samples {
            var text = [CChar](repeating: 0, count: 64)
            _ = inet_ntop(AF_INET6, bytes, &text, 64)
            #expect(NetworkAddress(bytes: bytes)!.description == String(cString: text), "\(bytes)")
        }
    }

    @Test func theRuleFollowsTheFeedUnlessTheOperatorSays() {
        let lan = v4(192, 168, 1, 20)
        let net = v4(93, 184, 215, 14)
        // Addresses on the internet are always fine.
        for rule in PrivateAddresses.allCases {
            #expect(rule.permits(net, forFeed: false, feedIsInternal: false))
        }
        // Inside: by the feed's own place, unless the operator decided.
        #expect(PrivateAddresses.automatic.permits(lan, forFeed: false, feedIsInternal: true))
        #expect(!PrivateAddresses.automatic.permits(lan, forFeed: false, feedIsInternal: false))
        #expect(!PrivateAddresses.automatic.permits(lan, forFeed: false, feedIsInternal: nil))
        #expect(PrivateAddresses.allowed.permits(lan, forFeed: false, feedIsInternal: false))
        #expect(!PrivateAddresses.refused.permits(lan, forFeed: false, feedIsInternal: true))
        // The feed the operator named is always fetched.
        #expect(PrivateAddresses.refused.permits(lan, forFeed: true, feedIsInternal: true))
    }
}
