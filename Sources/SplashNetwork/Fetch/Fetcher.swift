import CCurl
import FoundationEssentials
import Glibc
import SplashCore
import SplashServices

/// Downloads a URL with the product's limits, streaming the body to a sink as it
/// arrives and stopping as soon as a limit is crossed. http and https go through
/// libcurl, which is allowed those two schemes alone; file URLs are read directly under
/// the same limits. Conditional requests use ETag and Last-Modified; for files the
/// modification time and size stand in for them.
public final class Fetcher {
    /// The outcome of a completed request.
    public enum Result: Equatable {
        case notModified
        /// Fetched in full: the answer's validators and `Cache-Control` (nil for a file).
        case fetched(etag: String?, lastModified: String?, bytes: Int, cacheControl: String? = nil)
    }

    /// Seconds without progress (connecting included) before giving up.
    public var idleTimeout: TimeInterval = 5
    /// Seconds for the whole request.
    public var totalTimeout: TimeInterval = 30
    /// Redirects followed at most before the request fails.
    public var maxRedirects = 5
    /// The slowest a body may come in (16 KiB in every 10 s once it has begun), so that a
    /// server dripping a byte now and then cannot hold a fetch for its whole time; judged
    /// by `TransferPace` on `clock`.
    public var minimumRate = TransferPace(bytes: 16 << 10, seconds: 10)
    /// The clock the minimum rate is measured on.
    public let clock: NetworkClock
    /// The address guard that decides each connection (nil: the one installed, if any).
    public var addressGuard: AddressGuard?
    /// Names resolved as given, `host:port:address` (libcurl's resolve list), for tests of
    /// what a name that resolves inside the network gets.
    var resolving: [String] = []

    /// libcurl's handles not in use: a handle keeps its connections open between requests,
    /// and setting up a connection costs more than a conditional request that comes back 304.
    private var idle: [UnsafeMutableRawPointer] = []
    private let handlesLock = Lock()

    /// A fetcher with the default timeouts and redirect limit, measuring on `clock`.
    public init(clock: NetworkClock = .system) {
        self.clock = clock
        Self.startCurl
    }

    deinit {
        idle.forEach { curl_easy_cleanup($0) }
    }

    /// libcurl's global setup, once per process, before any thread uses it.
    private static let startCurl: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    private func takeHandle() -> UnsafeMutableRawPointer {
        handlesLock.withLock { idle.popLast() } ?? curl_easy_init()!
    }

    private func giveBack(_ handle: UnsafeMutableRawPointer) {
        handlesLock.withLock {
            if idle.count < 4 { idle.append(handle) } else { curl_easy_cleanup(handle) }
        }
    }

    /// Fetches `url`. `inspect` sees the first bytes once (it may throw to refuse the
    /// body early, e.g. an HTML page where an image was expected); `sink` gets every chunk.
    public func fetch(_ url: URL, etag: String? = nil, lastModified: String? = nil, limit: Int,
                      inspect: (([UInt8]) throws -> Void)? = nil, sink: @escaping (Data) throws -> Void) throws -> Result {
        switch url.scheme?.lowercased() {
        case "file":
            return try fetchFile(url, lastModified: lastModified, limit: limit, inspect: inspect, sink: sink)
        case "http", "https":
            return try fetchHTTP(try Self.reachable(url), etag: etag, lastModified: lastModified, limit: limit, inspect: inspect,
                                 sink: sink)
        default:
            throw FetchError.unsupportedScheme(url.publicAddress)
        }
    }

    /// `url` as the HTTP library here connects: an IPv4 address written as one number or
    /// in short (`2130706433`, `127.1`) is written out in full (`127.0.0.1`), so that the
    /// program and libcurl read one host. An IPv6 address (`http://[2001:db8::1]/`) is
    /// fetched as written.
    static func reachable(_ url: URL) throws -> URL {
        guard let host = url.host, !host.isEmpty, !host.hasPrefix("["), !host.contains(":") else { return url }
        var address = in_addr()
        guard host.first?.isNumber == true, host.split(separator: ".").count != 4 || host.contains(where: { !$0.isNumber && $0 != "." }),
              inet_aton(host, &address) != 0, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address, &text, socklen_t(INET_ADDRSTRLEN)) != nil else { return url }
        parts.host = String(cString: text)
        return parts.url ?? url
    }

    /// POSTs `body` to `url` (http or https) under the same limits as every fetch — the answer
    /// read to at most `limit` bytes and dropped, no redirect from https to http, the
    /// address guard — and throws unless the answer is 2xx.
    public func post(_ url: URL, body: Data, contentType: String, limit: Int = 64 << 10) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FetchError.unsupportedScheme(url.publicAddress)
        }
        _ = try fetchHTTP(try Self.reachable(url), etag: nil, lastModified: nil, limit: limit, inspect: nil, sink: { _ in },
                          body: (body, contentType))
    }

    /// Fetches into memory (for documents like the feed).
    public func fetchData(_ url: URL, etag: String? = nil, lastModified: String? = nil, limit: Int) throws
        -> (Result, Data) {
        var data = Data()
        let result = try fetch(url, etag: etag, lastModified: lastModified, limit: limit) { data.append($0) }
        return (result, data)
    }

    // MARK: file

    private func fetchFile(_ url: URL, lastModified: String?, limit: Int, inspect: (([UInt8]) throws -> Void)?,
                           sink: @escaping (Data) throws -> Void) throws -> Result {
        let path = url.path
        // Opened without waiting (a FIFO in its place is refused, never waited on) and held
        // to what it is: only a regular file is read.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw FetchError.fileMissing(path) }
            // What it is says more than a permission (a FIFO of another user's).
            var named = stat()
            if stat(path, &named) == 0, let kind = FetchError.fileKind(named.st_mode) { throw FetchError.notAFile(path, kind) }
            if code == EACCES, let user = PrivilegeDrop.leftRootAs {
                throw FetchError.unreadableAs(path, String(cString: strerror(code)).lowercased(), asUser: user)
            }
            throw FetchError.unreadableFile(path, String(cString: strerror(code)).lowercased())
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FetchError.unreadableFile(path, String(cString: strerror(errno)).lowercased()) }
        if let kind = FetchError.fileKind(st.st_mode) { throw FetchError.notAFile(path, kind) }
        let stamp = "\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)-\(st.st_size)"
        if let lastModified, lastModified == stamp { return .notModified }
        guard Int(st.st_size) <= limit else { throw FetchError.tooLarge(limit: limit, url: url.publicAddress) }
        var total = 0
        var head = FirstBytes(inspect: inspect, sink: sink)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw FetchError.unreadableFile(path, String(cString: strerror(errno)).lowercased()) }
            if n == 0 { break }
            total += n
            guard total <= limit else { throw FetchError.tooLarge(limit: limit, url: url.publicAddress) }
            try buffer.withUnsafeBufferPointer { try head.take(UnsafeBufferPointer(rebasing: $0[0..<n])) }
        }
        try head.finish()
        return .fetched(etag: nil, lastModified: stamp, bytes: total)
    }

    // MARK: http

    private func fetchHTTP(_ url: URL, etag: String?, lastModified: String?, limit: Int,
                           inspect: (([UInt8]) throws -> Void)?, sink: @escaping (Data) throws -> Void,
                           body: (data: Data, type: String)? = nil) throws -> Result {
        let mark = (addressGuard ?? AddressGuard.installed)?.mark() ?? 0
        let started = clock.uptime()
        var hops = [url]
        var body = body
        // Validators belong to the URL that gave them: sent to it alone, never to where it
        // redirects, and kept only from an answer that came without a redirect.
        let etag = AnswerValidators.entityTag(etag)
        let lastModified = AnswerValidators.lastModified(lastModified)
        while true {
            let current = hops[hops.count - 1]
            let first = hops.count == 1
            let transfer = Transfer(url: current, limit: limit, pace: minimumRate, clock: clock,
                                    conditional: first && (etag != nil || lastModified != nil), inspect: inspect, sink: sink)
            let next: URL?
            do {
                let left = totalTimeout - (clock.uptime() - started)
                guard left > 0 else { throw FetchError.timedOut(seconds: Int(totalTimeout), url: url.publicAddress) }
                // Parsed once, by libcurl: what it connects to is what the address guard judges.
                let address = try CurlAddress(current)
                next = try exchange(transfer, address: address, etag: first ? etag : nil, lastModified: first ? lastModified : nil,
                                    body: body, timeout: left)
            } catch {
                let failure = named(error, at: current, since: mark)
                // Where a redirect was answered, the first server had the request: whatever
                // failed after it, the request did leave (a ping is not sent again).
                if hops.count > 1, let fetch = failure as? FetchError, fetch.neverLeft {
                    throw FetchError.afterRedirect(fetch, url: url.publicAddress)
                }
                throw failure
            }
            guard let next else {
                if transfer.decision == .notModified { return .notModified }
                return .fetched(etag: first ? AnswerValidators.entityTag(transfer.headers["etag"]) : nil,
                                lastModified: first ? AnswerValidators.lastModified(transfer.headers["last-modified"]) : nil,
                                bytes: transfer.received,
                                cacheControl: first ? AnswerValidators.cacheControl(transfer.headers["cache-control"]) : nil)
            }
            if hops.count > maxRedirects {
                throw FetchError.tooManyRedirects(url.publicAddress, limit: maxRedirects)
            }
            guard let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw FetchError.redirectScheme(url.publicAddress, scheme: TerminalText.printable(String((next.scheme ?? "no").prefix(20))))
            }
            guard Self.redirectAllowed(after: hops, to: next) else {
                throw FetchError.insecureRedirect(url.publicAddress)
            }
            // 307 and 308 ask for the same request again; the others for a GET of the new place.
            if transfer.status != 307 && transfer.status != 308 { body = nil }
            hops.append(next)
        }
    }

    /// One request and its answer through libcurl; the place a redirect points at, or nil
    /// when the answer is the last (its body, if any, handed to the transfer's sink).
    private func exchange(_ transfer: Transfer, address: CurlAddress, etag: String?, lastModified: String?,
                          body: (data: Data, type: String)?, timeout: TimeInterval) throws -> URL? {
        let handle = takeHandle()
        defer { giveBack(handle) }
        curl_easy_reset(handle)
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        var lines = ["User-Agent: Splashboard", "Expect:"]
        if let etag { lines.append("If-None-Match: \(etag)") }
        if let lastModified { lines.append("If-Modified-Since: \(lastModified)") }
        if let body { lines.append("Content-Type: \(body.type)") }
        for line in lines { headers = curl_slist_append(headers, line) }
        var resolve: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(resolve) }
        for entry in resolving { resolve = curl_slist_append(resolve, entry) }
        // Whenever a guard is in force, it decides every connection: the host and port are
        // libcurl's own reading of the URL, so no form of it goes around the guard.
        if let checker = addressGuard ?? AddressGuard.installed { transfer.guardian = (checker, address.host, address.port) }
        var message = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let box = Unmanaged.passRetained(transfer)
        defer { box.release() }
        let began = clock.uptime()
        let code: CURLcode = message.withUnsafeMutableBufferPointer { buffer in
            splash_curl_set_pointer(handle, CURLOPT_CURLU, UnsafeMutableRawPointer(address.handle))
            // Only http and https, here and after any redirect: a file:// or other scheme
            // never reaches the library's own readers.
            splash_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
            splash_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            splash_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
            splash_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(idleTimeout * 1000))
            splash_curl_set_long(handle, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000)))
            // Nothing at all for the idle time ends it; the minimum rate is the transfer's.
            splash_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            splash_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(idleTimeout.rounded(.up))))
            splash_curl_set_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
            splash_curl_set_list(handle, CURLOPT_HTTPHEADER, headers)
            if resolve != nil { splash_curl_set_list(handle, CURLOPT_RESOLVE, resolve) }
            splash_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            if let body {
                splash_curl_set_long(handle, CURLOPT_POST, 1)
                splash_curl_set_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.data.count))
                body.data.withUnsafeBytes { raw in
                    _ = splash_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress))
                }
            }
            let context = box.toOpaque()
            splash_curl_set_header(handle) { pointer, size, count, context in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                let bytes = UnsafeRawBufferPointer(start: pointer, count: size * count)
                return transfer.header(String(decoding: bytes, as: UTF8.self)) ? size * count : 0
            }
            splash_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
            splash_curl_set_write(handle) { pointer, size, count, context in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                let bytes = UnsafeRawPointer(pointer!).assumingMemoryBound(to: UInt8.self)
                return transfer.body(UnsafeBufferPointer(start: bytes, count: size * count)) ? size * count : 0
            }
            splash_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
            splash_curl_set_progress(handle) { context, _, _, _, _ in
                Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().tick() ? 0 : 1
            }
            splash_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
            splash_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
            if let guardian = transfer.guardian {
                // Every connection is asked for: a refused address gets no socket.
                splash_curl_set_opensocket(handle) { context, _, address in
                    Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue().openSocket(address!)
                }
                splash_curl_set_pointer(handle, CURLOPT_OPENSOCKETDATA, context)
                // The feed's connection may go where no other request may: never kept for one.
                if guardian.checker.isFeedPlace(host: guardian.host, port: guardian.port) {
                    splash_curl_set_long(handle, CURLOPT_FORBID_REUSE, 1)
                    splash_curl_set_long(handle, CURLOPT_FRESH_CONNECT, 1)
                }
            }
            return curl_easy_perform(handle)
        }
        if let failure = transfer.failure { throw failure }
        switch transfer.decision {
        case .redirect:
            guard let location = transfer.headers["location"],
                  let next = URL(string: location, relativeTo: transfer.url)?.absoluteURL else {
                throw FetchError.status(transfer.status, transfer.url.publicAddress)
            }
            return next
        case .status:
            throw FetchError.status(transfer.status, transfer.url.publicAddress)
        case .notModified:
            return nil
        case .body, nil:
            guard code == CURLE_OK else {
                let text = String(cString: message.prefix { $0 != 0 } + [0])
                var systemError = 0
                splash_curl_get_long(handle, CURLINFO_OS_ERRNO, &systemError)
                // Whether any of the request left: libcurl's count of the bytes it sent.
                var sent = 0
                splash_curl_get_long(handle, CURLINFO_REQUEST_SIZE, &sent)
                // Timed out: the whole request's time when that ran out, else the idle time.
                let whole = clock.uptime() - began >= timeout - 0.25
                throw Transfer.describe(code, message: text, systemError: Int32(systemError), url: transfer.url,
                                        timeout: whole ? totalTimeout : idleTimeout, sent: sent > 0,
                                        headRead: transfer.decision != nil)
            }
            guard transfer.decision == .body else { throw FetchError.transport("no answer", url: transfer.url.publicAddress) }
            try transfer.finish()
            return nil
        }
    }

    /// What `error` of a request to `current` was, said by what the address guard saw since `mark`.
    private func named(_ error: Error, at current: URL, since mark: UInt64) -> Error {
        // The address guard refused where the request (or a redirect) led: say so.
        guard let installed = addressGuard ?? AddressGuard.installed, let place = AddressGuard.hostAndPort(current) else {
            return error
        }
        if let refusal = installed.refusal(host: place.0, port: place.1, since: mark) {
            return FetchError.insideAddress(url: current.publicAddress, address: refusal.address.description,
                                            kind: refusal.kind)
        }
        return error
    }

    /// Whether a redirect may be followed: only to http or https, and never from https
    /// down to plain http.
    public static func redirectAllowed(from: URL, to: URL?) -> Bool {
        redirectAllowed(after: [from], to: to)
    }

    /// Whether a redirect may be followed after the request went through `hops` (its own
    /// URL first): only to http or https, and never to plain http once any hop was https —
    /// http → https → http is refused as https → http is.
    public static func redirectAllowed(after hops: [URL], to: URL?) -> Bool {
        guard let scheme = to?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return !(scheme == "http" && hops.contains { $0.scheme?.lowercased() == "https" })
    }
}
