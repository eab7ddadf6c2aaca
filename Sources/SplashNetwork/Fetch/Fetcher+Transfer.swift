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
        /// Whether the request sent validators: only then may the answer be "not modified".
        let conditional: Bool
        private var head: FirstBytes
        private var pace: TransferPace
        /// The status of the answer whose headers are being read, and those headers.
        private(set) var status = 0
        private(set) var headers: [String: String] = [:]
        /// What the answer's head decided: nil until it is read.
        private(set) var decision: Decision?
        private(set) var received = 0
        /// Why the transfer was stopped from a callback (a limit, the sink), if it was.
        private(set) var failure: Error?
        /// The address guard that decides this request's connections, and its host and port.
        var guardian: (checker: AddressGuard, host: String, port: Int)?
        /// Whether this request is the feed's own, and the guard's mark when it was first asked.
        private var forFeed: (feed: Bool, since: UInt64)?

        enum Decision: Equatable { case body, notModified, redirect, status }

        init(url: URL, limit: Int, pace: TransferPace, clock: NetworkClock, conditional: Bool,
             inspect: (([UInt8]) throws -> Void)?, sink: @escaping (Data) throws -> Void) {
            self.url = url
            self.limit = limit
            self.pace = pace
            self.clock = clock
            self.conditional = conditional
            head = FirstBytes(inspect: inspect, sink: sink)
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
                case 304 where conditional: decision = .notModified
                case 304:
                    failure = FetchError.unaskedNotModified(url.publicAddress)
                    return false
                case 300..<400: decision = .redirect
                case 200..<300:
                    if let length = headers["content-length"].flatMap({ Int($0) }), length > limit {
                        failure = FetchError.tooLarge(limit: limit, url: url.publicAddress)
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
                guard received <= limit else { throw FetchError.tooLarge(limit: limit, url: url.publicAddress) }
                try keepsPace(bytes.count)
                try head.take(bytes)
                return true
            } catch {
                failure = error
                return false
            }
        }

        /// The body ended: a body shorter than `FirstBytes.needed` is inspected and handed on now.
        func finish() throws {
            try head.finish()
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
            throw FetchError.tooSlow(url: url.publicAddress, bytes: short, seconds: Int(pace.seconds), minimum: pace.bytes)
        }

        /// What libcurl's failure `code` (with its message and the system's error number)
        /// means, in words an operator can act on. Whether the request left is libcurl's fact
        /// (`sent`: it counted bytes of the request sent), never read from its words: only a
        /// failure before anything was sent is one that may be tried again as never sent.
        /// CURLE_TOO_LARGE, libcurl 8.6's code for a header line past its buffer (8.14 on Debian 13);
        /// older libcurl said CURLE_OUT_OF_MEMORY, and Debian 12's headers lack the name.
        static let tooLarge = CURLcode(rawValue: 100)

        static func describe(_ code: CURLcode, message: String, systemError: Int32, url: URL, timeout: TimeInterval,
                             sent: Bool, headRead: Bool) -> FetchError {
            let address = url.publicAddress
            let host = url.host ?? address
            let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
            let text = message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
            switch code {
            case CURLE_OPERATION_TIMEDOUT:
                return .timedOut(seconds: Int(timeout), url: address)
            case CURLE_COULDNT_RESOLVE_HOST:
                return .unresolvable(host: host, detail: "")
            case CURLE_COULDNT_CONNECT:
                let why = systemError == ECONNREFUSED ? "connection refused"
                    : systemError != 0 ? String(cString: strerror(systemError)).lowercased() : text.trimming(".")
                return .connectionFailed(address: host, port: port, why: why)
            case CURLE_UNSUPPORTED_PROTOCOL where sent:
                // The request went out and what came back was no HTTP answer (HTTP/0.9 is refused).
                return .transport("the server answered with something that is not HTTP", url: address)
            case CURLE_UNSUPPORTED_PROTOCOL:
                return .unsupportedScheme(address)
            case CURLE_PARTIAL_FILE:
                // libcurl's words for this changed in 8.x; the fact is the same.
                let missing = text.split { !$0.isNumber }.first.map { " (\($0) bytes missing)" } ?? ""
                return .transport("the server closed the connection before the whole answer came" + missing, url: address)
            case CURLE_OUT_OF_MEMORY where sent && !headRead, Self.tooLarge where sent && !headRead:
                // libcurl's buffer for one header line is full (100 KB): the answer's head, not this device.
                return .transport("the server sent a header line longer than the HTTP library reads (100 KB); refused",
                                  url: address)
            case CURLE_PEER_FAILED_VERIFICATION where !sent:
                return .tls(host: host, detail: text.replacing("SSL certificate problem: ", with: "").trimming("."))
            case CURLE_SSL_CONNECT_ERROR where !sent:
                // Said by what happened: a server that answers in plain text, or another failure.
                if text.contains("wrong version number") || text.contains("packet length too long") {
                    return .notTLS(host: host, port: port)
                }
                return .handshake(host: host, port: port, why: text.trimming("."))
            default:
                return .transport(text.trimming("."), url: address)
            }
        }
    }
}
