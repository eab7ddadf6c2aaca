import CCurl
import FoundationEssentials
import SplashCore

/// An http or https URL as libcurl reads it (`curl_url()`), parsed once and handed to the
/// request as it is (`CURLOPT_CURLU`): the host and port the address guard judges are the
/// ones libcurl connects to. A URL libcurl reads without a host, or with another host than
/// the rest of the program reads (`http:/127.0.0.1/x`, `http:///inside/x`), is refused
/// before anything is sent: nothing is fetched that the guard could not judge.
final class CurlAddress {
    /// The URL as the program reads it.
    let url: URL
    /// The host libcurl connects to, in lower case, an IPv6 address without its brackets.
    let host: String
    /// The port libcurl connects to (the scheme's own where the URL names none).
    let port: Int
    /// libcurl's parse, for `CURLOPT_CURLU`.
    let handle: OpaquePointer

    /// Parses `url`; throws `FetchError.malformedURL` when libcurl cannot read it, reads no
    /// host in it, or reads another host or port than `URL` does.
    init(_ url: URL) throws {
        guard let handle = curl_url() else { throw FetchError.transport("out of memory", url: url.publicAddress) }
        self.url = url
        self.handle = handle
        let noHost = "it has no host (write scheme://host/path, with two slashes)"
        let parsed = curl_url_set(handle, CURLUPART_URL, url.absoluteString, 0)
        guard parsed == CURLUE_OK else {
            curl_url_cleanup(handle)
            let problem: String = (url.host ?? "").isEmpty ? noHost : String(cString: curl_url_strerror(parsed)).lowercased().trimming(".")
            throw FetchError.malformedURL(url.publicAddress, problem: problem)
        }
        let host = Self.part(handle, CURLUPART_HOST).map { $0.lowercased().trimming("[]") } ?? ""
        let port = Self.part(handle, CURLUPART_PORT, defaultPort: true).flatMap { Int($0) } ?? 0
        let scheme = Self.part(handle, CURLUPART_SCHEME)?.lowercased() ?? ""
        let expected = AddressGuard.hostAndPort(url)
        let problem: String? =
            host.isEmpty || (url.host ?? "").isEmpty ? noHost
            : scheme != url.scheme?.lowercased() || expected.map({ $0 != (host, port) }) != false
                ? "its host is read two ways (\(host):\(port) by the HTTP library); write it plainly, scheme://host:port/path"
            : nil
        if let problem {
            curl_url_cleanup(handle)
            throw FetchError.malformedURL(url.publicAddress, problem: problem)
        }
        self.host = host
        self.port = port
    }

    deinit { curl_url_cleanup(handle) }

    private static func part(_ handle: OpaquePointer, _ part: CURLUPart, defaultPort: Bool = false) -> String? {
        guard let text = splash_curl_url_part(handle, part, defaultPort ? 1 : 0) else { return nil }
        defer { curl_free(text) }
        return String(cString: text)
    }
}
