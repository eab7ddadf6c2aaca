import Foundation
import SplashCore
import SplashServices
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Fetcher {
    /// The delegate of one request: checks the status, counts bytes, follows at most
    /// `maxRedirects` redirects and never from https to http.
    final class Transfer: @unchecked Sendable {
        let url: URL
        let limit: Int
        let maxRedirects: Int
        /// The minimum rate's window, and the clock it is measured on.
        private var pace: TransferPace
        let clock: NetworkClock
        let inspect: (([UInt8]) throws -> Void)?
        let sink: (Data) throws -> Void
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var redirects = 0
        /// Where the request has been: its URL, then each redirect's.
        private lazy var hops: [URL] = [url]
        private var lastURL: URL?
        private var received = 0
        private var inspected = false
        private var failure: Error?
        private var result: Result?

        init(url: URL, limit: Int, maxRedirects: Int, pace: TransferPace, clock: NetworkClock, inspect: (([UInt8]) throws -> Void)?,
             sink: @escaping (Data) throws -> Void) {
            self.url = url
            self.limit = limit
            self.maxRedirects = maxRedirects
            self.pace = pace
            self.clock = clock
            self.inspect = inspect
            self.sink = sink
        }

        /// Whether a server answered with a redirect that was followed.
        var redirected: Bool { hops.count > 1 }

        /// Where the request went last: its URL, or where a redirect sent it.
        var currentURL: URL {
            lock.lock()
            defer { lock.unlock() }
            return lastURL ?? url
        }

        func fail(_ error: Error) {
            lock.lock()
            if failure == nil { failure = error }
            lock.unlock()
        }

        func outcome() throws -> Result {
            lock.lock()
            defer { lock.unlock() }
            if let failure { throw failure }
            guard let result else { throw FetchError.transport("no answer", url: url.absoluteString) }
            return result
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            redirects += 1
            if redirects > maxRedirects {
                fail(FetchError.tooManyRedirects(url.absoluteString, limit: maxRedirects))
                completionHandler(nil)
                task.cancel()
            } else if !Fetcher.redirectAllowed(after: hops, to: request.url) {
                fail(FetchError.insecureRedirect(url.absoluteString))
                completionHandler(nil)
                task.cancel()
            } else {
                lock.lock(); lastURL = request.url; lock.unlock()
                if let next = request.url { hops.append(next) }
                completionHandler(request)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            guard let http = response as? HTTPURLResponse else {
                fail(FetchError.transport("not an HTTP answer", url: url.absoluteString))
                return completionHandler(.cancel)
            }
            switch http.statusCode {
            case 304:
                lock.lock(); result = .notModified; lock.unlock()
                completionHandler(.allow)
            case 200..<300:
                if http.expectedContentLength > Int64(limit) {
                    fail(FetchError.tooLarge(limit: limit, url: url.absoluteString))
                    return completionHandler(.cancel)
                }
                let headers = http.allHeaderFields
                func header(_ name: String) -> String? {
                    headers.first { ($0.key as? String)?.lowercased() == name }?.value as? String
                }
                lock.lock()
                result = .fetched(etag: header("etag"), lastModified: header("last-modified"), bytes: 0,
                                  cacheControl: header("cache-control"))
                lock.unlock()
                completionHandler(.allow)
            default:
                fail(FetchError.status(http.statusCode, url.absoluteString))
                completionHandler(.cancel)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.lock()
            let failed = failure != nil
            lock.unlock()
            if failed { return }
            received += data.count
            do {
                guard received <= limit else { throw FetchError.tooLarge(limit: limit, url: url.absoluteString) }
                try keepsPace(data.count)
                if !inspected, let inspect {
                    inspected = true
                    try inspect([UInt8](data.prefix(1024)))
                }
                try sink(data)
            } catch {
                fail(error)
                dataTask.cancel()
            }
        }

        /// Counts `bytes` into the minimum rate's window; throws when a window ended with
        /// fewer than it needs.
        private func keepsPace(_ bytes: Int) throws {
            guard let short = pace.received(bytes, at: clock.uptime()) else { return }
            throw FetchError.tooSlow(url: url.absoluteString, bytes: short, seconds: Int(pace.seconds), minimum: pace.bytes)
        }

        /// What a transport error means, in the words an operator can act on.
        static func describe(_ error: NSError, url: URL, timeout: TimeInterval) -> FetchError {
            let host = url.host ?? url.absoluteString
            let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
            guard error.domain == NSURLErrorDomain else {
                return .transport(error.localizedDescription, url: url.absoluteString)
            }
            switch error.code {
            case NSURLErrorTimedOut:
                return .timedOut(seconds: Int(timeout), url: url.absoluteString)
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
                return .unresolvable(host: host, detail: "")
            case NSURLErrorCannotConnectToHost:
                return .connectionFailed(address: host, port: port, why: "connection refused")
            case NSURLErrorNotConnectedToInternet:
                return .transport(FetchError.offline, url: url.absoluteString)
            case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateUntrusted,
                 NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid:
                return .tls(host: host, detail: error.localizedDescription.trimming("."))
            default:
                // libcurl's TLS failures arrive under other codes, in its own words.
                let text = error.localizedDescription
                if text.contains("wrong version number") || text.contains("packet length too long") {
                    return .transport("the server at \(host):\(port) does not speak TLS (is the URL meant to be http://?)",
                                      url: url.absoluteString)
                }
                // Only a certificate that does not verify is the certificate's fault; a connection
                // cut during the handshake or a read is said as such.
                let lower = text.lowercased()
                if lower.contains("certificate") || lower.contains("verify") || lower.contains("issuer") || lower.contains("self-signed")
                    || lower.contains("self signed") || lower.contains("expired") || lower.contains("hostname") && lower.contains("match") {
                    let detail = text.replacing("SSL certificate problem: ", with: "")
                    return .tls(host: host, detail: detail.trimming("."))
                }
                if lower.contains("ssl") || lower.contains("tls") {
                    return .transport("the TLS connection to \(host):\(port) failed (\(text.trimming(".")))",
                                      url: url.absoluteString)
                }
                return .transport(text, url: url.absoluteString)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            if let error {
                let nsError = error as NSError
                fail(Self.describe(nsError, url: currentURL, timeout: task.originalRequest?.timeoutInterval ?? 5))
            } else if let expected = task.response?.expectedContentLength, expected >= 0,
                      case .fetched = result, Int64(received) < expected {
                fail(FetchError.transport("the body ended after \(received) of \(expected) bytes", url: url.absoluteString))
            }
            lock.lock()
            if case .fetched(let etag, let lastModified, _, let cacheControl) = result {
                result = .fetched(etag: etag, lastModified: lastModified, bytes: received, cacheControl: cacheControl)
            }
            lock.unlock()
            done.signal()
        }
    }
}
