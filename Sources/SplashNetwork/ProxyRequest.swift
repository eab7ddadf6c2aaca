import FoundationEssentials
import SplashServices

/// A request as a client sends it to an HTTP proxy: `CONNECT host:port` for a tunnel
/// (https), or a request naming an absolute `http://` URL, which is forwarded to the host
/// with the path alone and `Connection: close`.
struct ProxyRequest {
    var host: String
    var port: Int
    /// A CONNECT tunnel; otherwise a plain http request to forward.
    var isTunnel: Bool
    /// The head to send to the host (plain http only).
    var forwardedHead: [UInt8] = []
    /// The client's `Proxy-Authorization` value, if it sent one.
    var authorization: String?

    init?(head: String) {
        var lines = head.components(separatedBy: "\r\n")
        authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.drop { $0 != ":" }.dropFirst()).trimmedSpaces }
        let first = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard first.count == 3 else { return nil }
        let (method, target, version) = (String(first[0]), String(first[1]), String(first[2]))
        if method == "CONNECT" {
            guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]),
                  (1...65_535).contains(port)
            else { return nil }
            host = String(target[..<colon]).trimming("[]")
            self.port = port
            isTunnel = true
            return
        }
        guard let url = URL(string: target), url.scheme?.lowercased() == "http", let (host, port) = AddressGuard.hostAndPort(url)
        else { return nil }
        self.host = host
        self.port = port
        isTunnel = false
        // The path and query exactly as the client wrote them (URL.path would decode them).
        let parts = URLComponents(string: target)
        var path = parts?.percentEncodedPath ?? "/"
        if path.isEmpty { path = "/" }
        if let query = parts?.percentEncodedQuery { path += "?" + query }
        let kept = lines.filter { line in
            guard !line.isEmpty else { return false }
            let name = line.prefix { $0 != ":" }.lowercased()
            return !["connection", "proxy-connection", "keep-alive", "proxy-authorization"].contains(name)
        }
        let text = (["\(method) \(path) \(version)"] + kept + ["Connection: close", "", ""]).joined(separator: "\r\n")
        forwardedHead = Array(text.utf8)
    }

    /// An answer's head with `Connection: close` in place of whatever it said of the
    /// connection.
    static func closing(_ head: String) -> String {
        let lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let status = lines.first else { return head }
        let kept = lines.dropFirst().filter { line in
            let name = line.prefix { $0 != ":" }.lowercased()
            return name != "connection" && name != "keep-alive"
        }
        return ([status] + kept + ["Connection: close", "", ""]).joined(separator: "\r\n")
    }
}
