import CCurl
import Glibc
import FoundationEssentials
import SplashCore
import SplashServices

extension Fetcher {
    /// One request's exchange through libcurl: the answer's status and headers, the body
    /// counted, paced and handed on as it comes, and why it stopped. Redirects are not
    /// followed here: `Fetcher` decides each one.
    final class Transfer {
        let url: URL
        let limit: Int
        let clock: NetworkClock
        let inspect: (([UInt8]) throws -> Void)?
        let sink: (Data) throws -> Void
        private var pace: TransferPace
        /// The status of the answer whose headers are being read, and those headers.
        private(set) var status = 0
        private(set) var headers: [String: String] = [:]
        /// What the answer's head decided: nil until it is read.
        private(set) var decision: Decision?
        private(set) var received = 0
        private var inspected = false
        /// Why the transfer was stopped from a callback (a limit, the sink), if it was.
        private(set) var failure: Error?
        /// The address guard that decides this request's connections, and its host and port.
        var guardian: (checker: AddressGuard, host: String, port: Int)?
        /// Whether this request is the feed's own, and the guard's mark when it was first asked.
        private var forFeed: (feed: Bool, since: UInt64)?

        enum Decision: Equatable { case body, notModified, redirect, status }

        init(url: URL, limit: Int, pace: TransferPace, clock: NetworkClock, inspect: (([UInt8]) throws -> Void)?,
             sink: @escaping (Data) throws -> Void) {
            self.url = url
            self.limit = limit
            self.pace = pace
            self.clock = clock
            self.inspect = inspect
            self.sink = sink
        }

        /// A line of the answer's head; false stops the transfer (nothing of its body is wanted).
        func header(_ line: String) -> Bool {
            if line.hasPrefix("HTTP/") {
                // A new answer (after a 100 Continue): its own headers.
                status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                headers = [:]
                return true
            }
            let text = line.trimmed
            if text.isEmpty {
                guard status >= 200 else { return true }
                switch status {
                case 304: decision = .notModified
                case 300..<400: decision = .redirect
                case 200..<300:
                    if let length = headers["content-length"].flatMap({ Int($0) }), length > limit {
                        failure = FetchError.tooLarge(limit: limit, url: url.absoluteString)
                        return false
                    }
                    decision = .body
                    return true
                default: decision = .status
                }
                return false
            }
            if let colon = text.firstIndex(of: ":") {
                headers[text[..<colon].trimmedSpaces.lowercased()] = text[text.index(after: colon)...].trimmedSpaces
            }
            return true
        }

        /// A piece of the body; false stops the transfer.
        func body(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard failure == nil, decision == .body else { return false }
            received += bytes.count
            do {
                guard received <= limit else { throw FetchError.tooLarge(limit: limit, url: url.absoluteString) }
                try keepsPace(bytes.count)
                if !inspected, let inspect {
                    inspected = true
                    try inspect(Array(bytes.prefix(1024)))
                }
                try sink(Data(bytes))
                return true
            } catch {
                failure = error
                return false
            }
        }

        /// libcurl's tick (about once a second, and at every piece): false stops a body
        /// that fell behind the minimum rate while nothing came.
        func tick() -> Bool {
            guard failure == nil else { return false }
            guard decision == .body, received > 0 else { return true }
            do {
                try keepsPace(0)
                return true
            } catch {
                failure = error
                return false
            }
        }

        /// A socket for a connection to `address`, if the address guard admits it; -1 (no
        /// socket: libcurl tries the name's next address, else fails to connect) if not.
        func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
            if let guardian {
                let asked = forFeed ?? (guardian.checker.takesFeedTicket(host: guardian.host, port: guardian.port),
                                        guardian.checker.mark())
                forFeed = asked
                let admitted = withUnsafePointer(to: &address.pointee.addr) { socket in
                    AddressGuard.address(of: socket).map {
                        guardian.checker.admits($0, host: guardian.host, port: guardian.port, forFeed: asked.feed, since: asked.since)
                    } ?? false
                }
                guard admitted else { return -1 }
            }
            return socket(address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
        }

        /// Counts `bytes` into the minimum rate's window; throws when a window ended with
        /// fewer than it needs.
        private func keepsPace(_ bytes: Int) throws {
            guard let short = pace.received(bytes, at: clock.uptime()) else { return }
            throw FetchError.tooSlow(url: url.absoluteString, bytes: short, seconds: Int(pace.seconds), minimum: pace.bytes)
        }

        /// What libcurl's failure `code` (with its message and the system's error number)
        /// means, in words an operator can act on.
        static func describe(_ code: CURLcode, message: String, systemError: Int32, url: URL, timeout: TimeInterval) -> FetchError {
            let host = url.host ?? url.absoluteString
            let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
            let text = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
            switch code {
            case CURLE_OPERATION_TIMEDOUT:
                return .timedOut(seconds: Int(timeout), url: url.absoluteString)
            case CURLE_COULDNT_RESOLVE_HOST:
                return .unresolvable(host: host, detail: "")
            case CURLE_COULDNT_CONNECT:
                let why = systemError == ECONNREFUSED ? "connection refused"
                    : systemError != 0 ? String(cString: strerror(systemError)).lowercased() : text.trimming(".")
                return .connectionFailed(address: host, port: port, why: why)
            case CURLE_UNSUPPORTED_PROTOCOL:
                return .unsupportedScheme(url.absoluteString)
            default:
                break
            }
            if text.contains("wrong version number") || text.contains("packet length too long") {
                return .transport("the server at \(host):\(port) does not speak TLS (is the URL meant to be http://?)",
                                  url: url.absoluteString)
            }
            // Only a certificate that does not verify is the certificate's fault; a connection
            // cut during the handshake or a read is said as such.
            let lower = text.lowercased()
            if code == CURLE_PEER_FAILED_VERIFICATION || lower.contains("certificate") || lower.contains("verify")
                || lower.contains("issuer") || lower.contains("self-signed") || lower.contains("self signed")
                || lower.contains("expired") || lower.contains("hostname") && lower.contains("match") {
                let detail = text.replacing("SSL certificate problem: ", with: "")
                return .tls(host: host, detail: detail.trimming("."))
            }
            if code == CURLE_SSL_CONNECT_ERROR || lower.contains("ssl") || lower.contains("tls") {
                return .transport("the TLS connection to \(host):\(port) failed (\(text.trimming(".")))", url: url.absoluteString)
            }
            return .transport(text.trimming("."), url: url.absoluteString)
        }
    }
}
