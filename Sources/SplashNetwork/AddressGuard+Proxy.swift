import FoundationEssentials
import SplashServices
import Glibc
import SplashCore

/// The proxy the guard is: accepting the process's own requests, reading each head within
/// its deadline, resolving and connecting with the rule checked on the address connected,
/// and relaying (a CONNECT tunnel, or one plain http request with its answer's head made
/// to close). Over 200 lines: its parts only make sense together.
extension AddressGuard {
    func acceptLoop() {
        while let client = SocketAccept.next(on: listener, warn: { fputs("splashboard-net: address guard: \($0)\n", stderr) }) {
            // Only this process's own user may take a slot: another local user's connections
            // (or one whose owner cannot be found) are closed at once, on this thread, so that
            // they can hold neither the slots every fetch needs nor threads.
            guard Self.peerUser(of: client) == geteuid() else {
                close(client)
                continue
            }
            lock.lock()
            let full = active >= Self.maxActive
            if !full { active += 1 } else { served += 1; lastBusy = served }
            lock.unlock()
            if full {
                Self.answer(client, status: "503 Service Unavailable", body: "the address guard is busy")
                close(client)
                continue
            }
            NamedThread.start(name: "splashboard.address-guard.connection") { [self] in
                serve(client)
                close(client)
                lock.lock(); active -= 1; lock.unlock()
            }
        }
    }

    /// The user whose socket is at the other end of `client`, a connection on 127.0.0.1:
    /// the kernel's tables of TCP sockets (`/proc/self/net/tcp`, and `tcp6` for a peer on
    /// an IPv6 socket writing the address v4-mapped; `/proc/self`, as `ProcSubset=pid`
    /// leaves it) name the owner of the socket whose own address is the peer's and whose
    /// peer is this one. Nil when it is not found.
    static func peerUser(of client: Int32) -> uid_t? {
        var peer = sockaddr_in()
        var mine = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(client, $0, &length) == 0 }
        }
        length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let own = withUnsafeMutablePointer(to: &mine) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &length) == 0 }
        }
        guard named, own, peer.sin_family == sa_family_t(AF_INET) else { return nil }
        // Addresses as the tables write them: the address's bytes as hex numbers in host
        // order, then the port in hex.
        func v4(_ a: sockaddr_in) -> String { String(cFormat: "%08X:%04X", a.sin_addr.s_addr, UInt16(bigEndian: a.sin_port)) }
        func v6(_ a: sockaddr_in) -> String {
            String(cFormat: "0000000000000000FFFF0000%08X:%04X", a.sin_addr.s_addr, UInt16(bigEndian: a.sin_port))
        }
        for (table, them, us) in [("tcp", v4(peer), v4(mine)), ("tcp6", v6(peer), v6(mine))] {
            // Read to its end: the kernel makes the table as it is read (its size says 0).
            guard let file = FileReader(path: "/proc/self/net/" + table) else { continue }
            let rows = file.readAll()
            // The one row that begins with the peer's address and then this one's; after the
            // two addresses come its state, queues, timer and retransmits, then the user.
            guard let found = rows.firstRange(of: Data(" \(them) \(us) ".utf8)) else { continue }
            let fields = String(decoding: rows[found.upperBound...].prefix(200), as: UTF8.self)
                .split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 4 ? uid_t(fields[4]) : nil
        }
        return nil
    }

    func serve(_ client: Int32) {
        guard let (head, rest) = Self.readHead(client, withinMilliseconds: Self.headMilliseconds),
              let request = ProxyRequest(head: head) else {
            Self.answer(client, status: "400 Bad Request", body: "not a proxy request")
            return
        }
        guard request.authorization == proxyAuthorization else {
            Self.answer(client, status: "407 Proxy Authentication Required", body: "this proxy is the kiosk's own")
            return
        }
        let (candidates, lookupError) = resolver(request.host, request.port)
        let forFeed = isFeedRequest(host: request.host, port: request.port)
        var refused: (address: NetworkAddress, kind: String)?
        var server: Int32 = -1
        var failure: FetchError?
        for candidate in candidates {
            guard permits(candidate.address, host: request.host, port: request.port, forFeed: forFeed) else {
                refused = refused ?? (candidate.address, candidate.address.internalKind ?? "inside")
                continue
            }
            server = Self.connect(candidate.storage, length: candidate.length)
            if server >= 0 { break }
            failure = failure ?? .connectionFailed(address: candidate.address.description, port: request.port,
                                                   why: server == Self.timedOut ? "timed out after \(Self.connectMilliseconds / 1000) s"
                                                       : String(cString: strerror(errno)).lowercased())
        }
        if candidates.isEmpty { failure = .unresolvable(host: request.host, detail: lookupError) }
        let key = "\(request.host.lowercased()):\(request.port)"
        lock.lock()
        served += 1
        refusals[key] = server < 0 ? refused.map { ($0.address, $0.kind, served) } : nil
        failures[key] = server < 0 && refused == nil ? failure.map { ($0, served) } : nil
        // What no request still waiting can ask about goes: a feed naming ever more hosts
        // does not grow these without end.
        if refusals.count + failures.count > Self.remembered, served > UInt64(Self.remembered) {
            let horizon = served - UInt64(Self.remembered)
            refusals = refusals.filter { $0.value.mark > horizon }
            failures = failures.filter { $0.value.mark > horizon }
        }
        lock.unlock()
        guard server >= 0 else {
            if let refused {
                Self.answer(client, status: "403 Forbidden",
                            body: "\(request.host) leads to \(refused.address), a \(refused.kind) address")
            } else {
                Self.answer(client, status: "502 Bad Gateway",
                            body: failure?.explained ?? "cannot connect to \(request.host):\(request.port)")
            }
            return
        }
        defer { close(server) }
        if request.isTunnel {
            guard Self.send(client, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)) else { return }
            guard rest.isEmpty || Self.send(server, rest) else { return }
            Self.relay(client, server, rewriteAnswerHead: false)
        } else {
            guard Self.send(server, request.forwardedHead + rest) else { return }
            Self.relay(client, server, rewriteAnswerHead: true)
        }
    }

    /// Reads up to the blank line that ends a request head (at most 64 KiB), all of it
    /// within `milliseconds` (a peer that sends a byte now and then is not waited for);
    /// what came after it is returned as `rest`.
    static func readHead(_ fd: Int32, withinMilliseconds milliseconds: Int) -> (head: String, rest: [UInt8])? {
        let channel = LineChannel(fd: fd, terminator: Array("\r\n\r\n".utf8), limit: 64 * 1024)
        guard case .line(let head) = channel.next(within: Double(milliseconds) / 1000) else { return nil }
        return (String(decoding: head, as: UTF8.self) + "\r\n\r\n", Array(channel.takeRest()))
    }

    static func answer(_ fd: Int32, status: String, body: String) {
        let text = "HTTP/1.1 \(status)\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)"
        _ = send(fd, Array(text.utf8))
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool { LineChannel.sendAll(bytes, on: fd) }

    /// The addresses `host` resolves to, in the resolver's order of preference, and the
    /// resolver's word when there are none.
    static func lookUp(_ host: String, port: Int) -> (found: [Candidate], error: String) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let word = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            return ([], word.prefix(1).lowercased() + word.dropFirst())
        }
        defer { freeaddrinfo(list) }
        var found: [(NetworkAddress, sockaddr_storage, socklen_t)] = []
        var entry = list
        while let info = entry?.pointee {
            defer { entry = info.ai_next }
            guard let addr = info.ai_addr else { continue }
            var storage = sockaddr_storage()
            memcpy(&storage, addr, Int(info.ai_addrlen))
            let bytes: [UInt8]
            if info.ai_family == AF_INET {
                bytes = withUnsafeBytes(of: addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }) { Array($0) }
            } else if info.ai_family == AF_INET6 {
                bytes = withUnsafeBytes(of: addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }) { Array($0) }
            } else {
                continue
            }
            if let address = NetworkAddress(bytes: bytes) { found.append((address, storage, info.ai_addrlen)) }
        }
        return (found, found.isEmpty ? "no address" : "")
    }

    /// What `connect` returns when the address did not answer in time.
    static let timedOut: Int32 = -2

    /// A connected socket to the address; `timedOut` when it does not answer within 5 s,
    /// -1 with `errno` set when it refused or cannot be reached.
    static func connect(_ storage: sockaddr_storage, length: socklen_t) -> Int32 {
        var storage = storage
        let fd = socket(Int32(storage.ss_family), Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return -1 }
        let started = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        if started != 0 {
            var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            var failure: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard errno == EINPROGRESS else {
                let reason = errno
                close(fd)
                errno = reason
                return -1
            }
            guard poll(&ready, 1, connectMilliseconds) == 1 else {
                close(fd)
                return timedOut
            }
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size) == 0, failure == 0 else {
                close(fd)
                errno = failure
                return -1
            }
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~Int32(O_NONBLOCK))
        return fd
    }

    /// Copies bytes both ways until both sides are done or neither sends anything for a
    /// minute. A plain http answer's head gets `Connection: close`, so that the client
    /// never sends a request for another host down this connection.
    static func relay(_ client: Int32, _ server: Int32, rewriteAnswerHead: Bool) {
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var answerHead: LineBuffer? = rewriteAnswerHead ? LineBuffer(terminator: Array("\r\n\r\n".utf8), limit: 64 * 1024) : nil
        var open = [true, true]
        while open[0] || open[1] {
            for i in 0..<2 { fds[i].events = open[i] ? Int16(POLLIN) : 0 }
            guard poll(&fds, 2, idleSeconds * 1000) > 0 else { return }
            for i in 0..<2 where open[i] && fds[i].revents != 0 {
                let n = recv(fds[i].fd, &buffer, buffer.count, 0)
                let other = fds[1 - i].fd
                if n <= 0 {
                    open[i] = false
                    shutdown(other, Int32(SHUT_WR))
                    if i == 1 { return }  // the server is done: so is the answer
                    continue
                }
                var out = Array(buffer[0..<n])
                if i == 1, var head = answerHead {
                    head.append(out)
                    if let whole = head.next() {
                        let closing = ProxyRequest.closing(String(decoding: whole, as: UTF8.self) + "\r\n\r\n")
                        out = Array(closing.utf8) + head.takeRest()
                        answerHead = nil
                    } else if head.isOverLimit {
                        out = Array(head.takeRest())
                        answerHead = nil
                    } else {
                        answerHead = head
                        continue
                    }
                }
                guard send(other, out) else { return }
            }
        }
    }
}
