import Foundation
import SplashCore
import SplashServices
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc

/// Downloads a URL with the product's limits, streaming the body to a sink as it
/// arrives and stopping as soon as a limit is crossed. http and https go through
/// URLSession (libcurl); file URLs, which URLSession refuses, are read directly under
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

    /// One session for all of this fetcher's requests: setting one up costs milliseconds,
    /// more than a conditional request that comes back 304. Made again if the timeouts change.
    private var session: (session: URLSession, idle: TimeInterval, total: TimeInterval)?
    private let router = Router()
    private let sessionLock = NSLock()

    /// A fetcher with the default timeouts and redirect limit, measuring on `clock`.
    public init(clock: NetworkClock = .system) {
        self.clock = clock
    }

    deinit {
        session?.session.invalidateAndCancel()
    }

    private func currentSession() -> URLSession {
        sessionLock.lock()
        defer { sessionLock.unlock() }
        if let session, session.idle == idleTimeout, session.total == totalTimeout { return session.session }
        session?.session.finishTasksAndInvalidate()
        let config = URLSessionConfiguration.ephemeral
        config.urlCache = nil
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.timeoutIntervalForRequest = idleTimeout
        config.timeoutIntervalForResource = totalTimeout
        config.httpMaximumConnectionsPerHost = 1
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let made = URLSession(configuration: config, delegate: router, delegateQueue: queue)
        session = (made, idleTimeout, totalTimeout)
        return made
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
            throw FetchError.unsupportedScheme(url.absoluteString)
        }
    }

    /// `url` as the HTTP library here can fetch it: an IPv4 address written as one number
    /// or in short (`2130706433`, `127.1`) is written out in full (`127.0.0.1`), the way
    /// the library would connect to it anyway. An IPv6 address written in the URL cannot be
    /// fetched by it at all; that is said, with what to do.
    static func reachable(_ url: URL) throws -> URL {
        guard let host = url.host, !host.isEmpty else { return url }
        if host.hasPrefix("[") || host.contains(":") {
            throw FetchError.transport("an IPv6 address written in a URL cannot be fetched by this device's HTTP library; "
                                       + "give the server a host name (an /etc/hosts line will do) and use that", url: url.publicAddress)
        }
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
            throw FetchError.unsupportedScheme(url.absoluteString)
        }
        _ = try fetchHTTP(url, etag: nil, lastModified: nil, limit: limit, inspect: nil, sink: { _ in },
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
                           sink: (Data) throws -> Void) throws -> Result {
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
            throw FetchError.unreadableFile(path, String(cString: strerror(code)).lowercased())
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FetchError.unreadableFile(path, String(cString: strerror(errno)).lowercased()) }
        if let kind = FetchError.fileKind(st.st_mode) { throw FetchError.notAFile(path, kind) }
        let stamp = "\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)-\(st.st_size)"
        if let lastModified, lastModified == stamp { return .notModified }
        guard Int(st.st_size) <= limit else { throw FetchError.tooLarge(limit: limit, url: url.absoluteString) }
        var total = 0
        var first = true
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw FetchError.unreadableFile(path, String(cString: strerror(errno)).lowercased()) }
            if n == 0 { break }
            total += n
            guard total <= limit else { throw FetchError.tooLarge(limit: limit, url: url.absoluteString) }
            if first, let inspect { try inspect(Array(buffer[0..<min(n, 1024)])) }
            first = false
            try sink(Data(buffer[0..<n]))
        }
        return .fetched(etag: nil, lastModified: stamp, bytes: total)
    }

    // MARK: http

    private func fetchHTTP(_ url: URL, etag: String?, lastModified: String?, limit: Int,
                           inspect: (([UInt8]) throws -> Void)?, sink: @escaping (Data) throws -> Void,
                           body: (data: Data, type: String)? = nil) throws -> Result {
        var request = URLRequest(url: url)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = body.data
            request.setValue(body.type, forHTTPHeaderField: "Content-Type")
        }
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = idleTimeout
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        request.setValue("Splashboard", forHTTPHeaderField: "User-Agent")

        let mark = AddressGuard.installed?.mark() ?? 0
        let transfer = Transfer(url: url, limit: limit, maxRedirects: maxRedirects, pace: minimumRate, clock: clock, inspect: inspect,
                                sink: sink)
        let task = currentSession().dataTask(with: request)
        router.add(transfer, for: task)
        defer { router.remove(task) }
        task.resume()
        // The whole-request limit is enforced here too, whatever the transport does.
        if transfer.done.wait(timeout: .now() + totalTimeout + 1) == .timedOut {
            transfer.fail(FetchError.timedOut(seconds: Int(totalTimeout), url: url.absoluteString))
            task.cancel()
            _ = transfer.done.wait(timeout: .now() + 5)
        }
        do {
            return try transfer.outcome()
        } catch {
            let failure = Self.named(error, transfer: transfer, since: mark)
            // Where a redirect was answered, the first server had the request: whatever
            // failed after it, the request did leave (a ping is not sent again).
            if transfer.redirected, let fetch = failure as? FetchError, fetch.neverLeft {
                throw FetchError.afterRedirect(fetch, url: url.publicAddress)
            }
            throw failure
        }
    }

    /// What `error` of `transfer` was, said by what the address guard saw since `mark`.
    private static func named(_ error: Error, transfer: Transfer, since mark: UInt64) -> Error {
        // The address guard refused where the request (or a redirect) led: say so.
        guard let installed = AddressGuard.installed, let place = AddressGuard.hostAndPort(transfer.currentURL) else { return error }
        if let refusal = installed.refusal(host: place.0, port: place.1, since: mark) {
            return FetchError.insideAddress(url: transfer.currentURL.publicAddress, address: refusal.address.description,
                                            kind: refusal.kind)
        }
        // No server answered: the guard could not reach one. Its 502 is not the server's.
        if let failure = installed.failure(host: place.0, port: place.1, since: mark) { return failure }
        // Nor is its 503 when it had its hands full: the request never left.
        if installed.wasBusy(since: mark) { return FetchError.guardBusy(url: transfer.currentURL.publicAddress) }
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

    /// The session's delegate: hands each task's events to that task's `Transfer`.
    private final class Router: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]

        func add(_ transfer: Transfer, for task: URLSessionTask) {
            lock.lock()
            transfers[task.taskIdentifier] = transfer
            lock.unlock()
        }

        func remove(_ task: URLSessionTask) {
            lock.lock()
            transfers[task.taskIdentifier] = nil
            lock.unlock()
        }

        private func transfer(_ task: URLSessionTask) -> Transfer? {
            lock.lock()
            defer { lock.unlock() }
            return transfers[task.taskIdentifier]
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            guard let transfer = transfer(task) else { return completionHandler(nil) }
            transfer.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request,
                                completionHandler: completionHandler)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            guard let transfer = transfer(dataTask) else { return completionHandler(.cancel) }
            transfer.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            transfer(dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            transfer(task)?.urlSession(session, task: task, didCompleteWithError: error)
        }
    }
}
