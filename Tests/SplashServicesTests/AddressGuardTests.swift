import Foundation
import Glibc
import SplashCore
@testable import SplashServices
@testable import SplashNetwork
import SplashTestSupport
import Testing

/// The address guard as a client meets it: a proxy on 127.0.0.1 that connects only where
/// `allow-private-addresses` lets it, with the fault server as the destination.
@Suite struct AddressGuardTests {
    let folder: String
    let server: TestServer

    init() throws {
        folder = try temporaryFolder()
        try "hello through the guard\n".write(toFile: folder + "/a.txt", atomically: true, encoding: .utf8)
        server = try TestServer(root: folder)
    }

    /// Sends `request` to the guard and reads until it closes the connection.
    func exchange(_ guardian: AddressGuard, _ request: String, then more: String? = nil, authorized: Bool = true) throws
        -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(guardian.port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The kiosk's requests carry the proxy's secret; add it after the request line.
        var lines = request.components(separatedBy: "\r\n")
        if authorized { lines.insert("Proxy-Authorization: \(guardian.proxyAuthorization)", at: 1) }
        #expect(AddressGuard.send(fd, Array(lines.joined(separator: "\r\n").utf8)))
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        if let more {
            // A tunnel: wait for its answer, then speak through it.
            while answer.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                let n = recv(fd, &buffer, buffer.count, 0)
                guard n > 0 else { return String(decoding: answer, as: UTF8.self) }
                answer += buffer[0..<n]
            }
            #expect(AddressGuard.send(fd, Array(more.utf8)))
        }
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            answer += buffer[0..<n]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    var target: String { "127.0.0.1:\(server.port)" }
    var feed: URL { server.url("/files/feed.json") }

    @Test func aRefusedAddressIsAnswered403AndTheReasonKept() throws {
        let guardian = try AddressGuard(rule: .refused, feed: feed)
        let answer = try exchange(guardian, "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
        #expect(answer.contains("127.0.0.1, a loopback address"))
        // Without the kiosk's secret, nobody else on the machine may use it.
        let stranger = try exchange(guardian, "GET http://93.184.215.14/ HTTP/1.1\r\n\r\n", authorized: false)
        #expect(stranger.hasPrefix("HTTP/1.1 407"), "\(stranger)")
        let refusal = guardian.refusal(host: "127.0.0.1", port: server.port)
        #expect(refusal?.address.description == "127.0.0.1")
        #expect(refusal?.kind == "loopback")
        // A request that begins later is not told of it: the refusal was not its own.
        let later = guardian.mark()
        #expect(guardian.refusal(host: "127.0.0.1", port: server.port, since: later) == nil)
        // Nothing reached the server.
        #expect(try server.requestCounts()["/files/a.txt"] == nil)
    }

    @Test func theFeedItselfGoesThroughAndATunnelCarriesBytesBothWays() throws {
        let guardian = try AddressGuard(rule: .refused, feed: feed)
        let answer = try guardian.whileFetchingFeed {
            try exchange(guardian, "CONNECT \(target) HTTP/1.1\r\n\r\n",
                         then: "GET /files/a.txt HTTP/1.1\r\nHost: \(target)\r\nConnection: close\r\n\r\n")
        }
        #expect(answer.hasPrefix("HTTP/1.1 200 Connection established"), "\(answer)")
        #expect(answer.hasSuffix("hello through the guard\n"), "\(answer)")
        #expect(guardian.refusal(host: "127.0.0.1", port: server.port) == nil)
        // Only the feed's host and port count as the feed: a name for the same place does not.
        let named = try guardian.whileFetchingFeed {
            try exchange(guardian, "CONNECT localhost:\(server.port) HTTP/1.1\r\n\r\n")
        }
        #expect(named.hasPrefix("HTTP/1.1 403"), "\(named)")
        // Only the feed request's own connection: a second one to the feed's host while it is
        // in flight (a ping the feed named, racing it) is checked as any other.
        let (own, second) = try guardian.whileFetchingFeed {
            (try exchange(guardian, "CONNECT \(target) HTTP/1.1\r\n\r\n", then: "GET /files/a.txt HTTP/1.1\r\nHost: \(target)\r\n"
                          + "Connection: close\r\n\r\n"),
             try exchange(guardian, "CONNECT \(target) HTTP/1.1\r\n\r\n"))
        }
        #expect(own.hasPrefix("HTTP/1.1 200") && second.hasPrefix("HTTP/1.1 403"), "\(own.prefix(40)) / \(second.prefix(40))")
    }

    @Test func plainHTTPIsForwardedOneRequestPerConnection() throws {
        // A feed on this machine allows pictures on it (automatic).
        let guardian = try AddressGuard(rule: .automatic, feed: feed)
        let answer = try exchange(guardian, "GET http://localhost:\(server.port)/files/a.txt?v=%41 HTTP/1.1\r\n"
            + "Host: localhost:\(server.port)\r\nProxy-Connection: Keep-Alive\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.hasSuffix("hello through the guard\n"))
        #expect(try server.requestCounts()["/files/a.txt"] == 1)
    }

    /// Nothing is put in the way where nothing would be refused, or where a proxy decides.
    /// (Only cases that install nothing are tried here: installing points this whole test
    /// process at the guard. The `sync` command's test installs it for real.)
    @Test func noGuardWhereItWouldRefuseNothing() throws {
        for feed in ["file:///srv/feed.json", "http://192.168.1.20/feed.json", "http://[::1]:8080/feed.json"] {
            let installed = try AddressGuard.install(rule: .automatic, feed: URL(string: feed)!, environment: [:])
            #expect(installed.guard == nil && installed.reason == nil, "\(feed)")
        }
        let allowed = try AddressGuard.install(rule: .allowed, feed: URL(string: "https://93.184.215.14/f.json")!, environment: [:])
        #expect(allowed.guard == nil)
        let proxied = try AddressGuard.install(rule: .refused, feed: URL(string: "https://93.184.215.14/f.json")!,
                                               environment: ["https_proxy": "http://proxy.lan:3128"])
        #expect(proxied.guard == nil && proxied.reason?.contains("https_proxy") == true)
        #expect(AddressGuard.literal("10.0.0.1")?.internalKind == "private")
        #expect(AddressGuard.literal("cdn.example.test") == nil)
    }

    /// Opens a connection to the guard and returns it (nothing sent).
    func connection(to guardian: AddressGuard) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(guardian.port).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    @Test func theFeedsDNSNeverOpensInsideAddresses() throws {
        // The feed's host is a name whose DNS (the resolver here) answers 127.0.0.1. However
        // it answers, the feed is what the operator wrote: a name, not an inside address. A
        // picture on another inside address is refused before the feed's own request and
        // after it, when that request connected inside; the feed's own host stays open.
        let name = URL(string: "http://feed.example.test:\(server.port)/files/feed.json")!
        let resolver: (String, Int) -> (found: [AddressGuard.Candidate], error: String) = { host, port in
            AddressGuard.lookUp(host == "feed.example.test" ? "127.0.0.1" : host, port: port)
        }
        let guardian = try AddressGuard(rule: .automatic, feed: name, resolver: resolver)
        let picture = "GET http://\(target)/files/a.txt HTTP/1.1\r\nHost: \(target)\r\n\r\n"
        let refused = try exchange(guardian, picture)
        #expect(refused.hasPrefix("HTTP/1.1 403"), "a lookup of the feed's name opened inside addresses: \(refused)")
        #expect(guardian.feedIsInside() == false)
        let beside = "GET http://feed.example.test:\(server.port)/files/a.txt HTTP/1.1\r\nHost: feed.example.test\r\n\r\n"
        let fed = try guardian.whileFetchingFeed { try exchange(guardian, beside) }
        #expect(fed.hasPrefix("HTTP/1.1 200"), "\(fed)")
        #expect(guardian.feedIsInside() == false)
        #expect(try exchange(guardian, picture).hasPrefix("HTTP/1.1 403"))
        // A picture beside the feed, on the host the operator named: fetched.
        #expect(try exchange(guardian, beside).hasPrefix("HTTP/1.1 200"))
        // Under `no`, only the feed's own request reaches inside.
        let strict = try AddressGuard(rule: .refused, feed: name, resolver: resolver)
        #expect(try exchange(strict, beside).hasPrefix("HTTP/1.1 403"))
    }

    /// Another local user cannot hold the guard's slots: its connections are closed at once,
    /// whatever it sends, and the kiosk's own requests go through meanwhile.
    @Test(.enabled(if: getuid() == 0)) func anotherUserCannotTakeTheGuardsSlots() throws {
        let guardian = try AddressGuard(rule: .automatic, feed: feed)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        holder.arguments = ["--reuid", "65534", "--regid", "65534", "--clear-groups", "/usr/bin/python3", "-c", """
            import socket, time
            held = []
            for _ in range(\(AddressGuard.maxActive + 16)):
                s = socket.create_connection(("127.0.0.1", \(guardian.port)))
                held.append(s)
            # And through an IPv6 socket, to the same port as a v4-mapped address.
            for _ in range(16):
                s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
                s.connect(("::ffff:127.0.0.1", \(guardian.port)))
                held.append(s)
            print("held", flush=True)
            time.sleep(8)
            """]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        #expect(out.fileHandleForReading.availableData.starts(with: Data("held".utf8)))
        // Never a slot, not for a moment: each is closed once its owner is looked up.
        #expect(!eventually(within: 1) { guardian.activeCount > 0 }, "another user's connections took slots")
        let served = try exchange(guardian, "GET http://\(target)/files/a.txt HTTP/1.1\r\n\r\n")
        #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(80))")
    }

    @Test func aPeerMustSendItsCredentialWithinTwoSecondsAndConnectionsAreCapped() throws {
        let guardian = try AddressGuard(rule: .automatic, feed: feed)
        // One that says nothing, one that sends a byte every half second: both are closed
        // (within the 10 s this side waits), not held for a minute.
        let silent = connection(to: guardian)
        let dripping = connection(to: guardian)
        defer { close(silent); close(dripping) }
        let drip = Thread {
            for _ in 0..<30 {
                guard send(dripping, "G", 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                usleep(500_000)
            }
        }
        drip.start()
        var byte: UInt8 = 0
        #expect(recv(silent, &byte, 1, 0) >= 0, "the silent peer was still held after 10 s")
        var answer = [UInt8](repeating: 0, count: 512)
        #expect(recv(dripping, &answer, answer.count, 0) >= 0, "the dripping peer was still held after 10 s")
        // Beyond the cap of connections served at once, one is answered 503 at once.
        var idle: [Int32] = []
        defer { idle.forEach { close($0) } }
        for _ in 0..<(AddressGuard.maxActive + 8) { idle.append(connection(to: guardian)) }
        // Each is looked up (whose it is) before it takes a slot: wait for the slots to fill.
        #expect(eventually(within: 10) { guardian.activeCount == AddressGuard.maxActive })
        let busy = try exchange(guardian, "GET http://\(target)/files/a.txt HTTP/1.1\r\n\r\n")
        #expect(busy.hasPrefix("HTTP/1.1 503"), "\(busy.prefix(80))")
        // Once the idle ones are dropped (no credential in 2 s), requests go through again.
        #expect(eventually(within: 10) { guardian.activeCount == 0 }, "connections without a credential were kept")
        let served = try exchange(guardian, "GET http://\(target)/files/a.txt HTTP/1.1\r\n\r\n")
        #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(80))")
    }

    /// The port of a TCP socket `pid` listens on at 127.0.0.1 (its address guard).
    static func listeningPort(of pid: pid_t) -> Int? {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let inodes = Set(fds.compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst(8).dropLast())
        })
        guard let table = try? String(contentsOfFile: "/proc/\(pid)/net/tcp", encoding: .utf8) else { return nil }
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == "0A", inodes.contains(String(fields[9])),
                  fields[1].hasPrefix("0100007F:") else { continue }
            return Int(fields[1].dropFirst(9), radix: 16)
        }
        return nil
    }

    /// The service's network process with few descriptors (`ulimit -n 64`) and its guard
    /// flooded with idle connections: its accept loop does not end (it waits for
    /// descriptors, or closes a connection it has none left to look up), and the next sync
    /// goes through it.
    @Test func aFloodOfConnectionsPastTheDescriptorLimitDoesNotStopTheGuard() throws {
        try writeImage(folder + "/a.jpg", width: 320, height: 180, bands: [.init(red: 200, green: 40, blue: 40)])
        try #"[{"id": "a", "picUrl": "a.jpg", "showTime": 5}]"#.write(toFile: folder + "/feed.json", atomically: true, encoding: .utf8)
        let socketPath = folder + "/net.sock"
        let network = Process()
        network.executableURL = URL(fileURLWithPath: "/bin/sh")
        network.arguments = ["-c", "ulimit -n 64 && exec \"$0\" \"$@\"", Binary.path + "-net", "serve", "--network-socket", socketPath,
                             "--feed", server.url("/files/feed.json").absoluteString, "--data-dir", folder + "/data",
                             "--cache-dir", folder + "/cache", "--allow-private-addresses", "no"]
        let errors = Pipe()
        network.standardError = errors
        try network.run()
        defer {
            kill(network.processIdentifier, SIGKILL)
            network.waitUntilExit()
        }
        eventually(within: 5) { FileManager.default.fileExists(atPath: socketPath) }
        let port = try #require(Self.listeningPort(of: network.processIdentifier), "no address guard found")
        var flood: [Int32] = []
        for _ in 0..<120 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            flood.append(fd)
        }
        // The flood is held for three seconds (the stimulus, not a wait for a result), then
        // let go: the next request is answered, however long freeing takes (40 s at most).
        usleep(3_000_000)
        flood.forEach { close($0) }
        // A sync as the display asks for one, over the network socket.
        let line = requestLine(socketPath, #"{"id": 1, "kind": "sync"}"#, seconds: 40)
        #expect(line.contains(#""status":"ok""#) && line.contains(#""campaigns":1"#), "\(line)")
        kill(network.processIdentifier, SIGKILL)
        network.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!said.contains("accept") || said.contains("waiting for descriptors to be freed"), "\(said)")
    }

    @Test func aFeedOnTheInternetRefusesInsideAddressesByDefault() throws {
        // An address literal: no name to resolve, so no network is needed to decide.
        let guardian = try AddressGuard(rule: .automatic, feed: URL(string: "https://93.184.215.14/feed.json")!)
        let answer = try exchange(guardian, "GET http://\(target)/files/a.txt HTTP/1.1\r\nHost: \(target)\r\n\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
        let allowing = try AddressGuard(rule: .allowed, feed: URL(string: "https://93.184.215.14/feed.json")!)
        #expect(try exchange(allowing, "GET http://\(target)/files/a.txt HTTP/1.1\r\n\r\n").hasPrefix("HTTP/1.1 200"))
    }
}
