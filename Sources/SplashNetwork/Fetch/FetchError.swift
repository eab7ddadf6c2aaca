import Glibc
import FoundationEssentials
import SplashServices

/// A download that did not complete, in words an operator can act on.
public enum FetchError: LocalizedError, Equatable {
    case status(Int, String)
    case tooLarge(limit: Int, url: String)
    case timedOut(seconds: Int, url: String)
    case tooManyRedirects(String, limit: Int)
    case insecureRedirect(String)
    /// A redirect to a scheme that is not http or https (file, ftp, gopher, …): not followed.
    case redirectScheme(String, scheme: String)
    /// A URL libcurl reads without a host, or with another host than the program reads:
    /// refused before anything is sent.
    case malformedURL(String, problem: String)
    /// "304 Not Modified" to a request that sent no validators: the server's fault.
    case unaskedNotModified(String)
    case transport(String, url: String)
    case fileMissing(String)
    /// A local path that is there but is no regular file (a folder, a FIFO, a device).
    case notAFile(String, String)
    /// A local file that is there but cannot be opened or read (its permissions).
    case unreadableFile(String, String)
    /// A local file that the user a command became when it left root (`asUser`) may not read.
    case unreadableAs(String, String, asUser: String)
    case unsupportedScheme(String)
    /// The destination leads inside the network and `allow-private-addresses` refuses it.
    case insideAddress(url: String, address: String, kind: String)
    /// The host's name did not resolve (DNS, or no network at all).
    case unresolvable(host: String, detail: String)
    /// The address did not take the connection: refused, unreachable, timed out.
    case connectionFailed(address: String, port: Int, why: String)
    /// The server's certificate did not verify (libcurl's verdict, before the request was sent).
    case tls(host: String, detail: String)
    /// The TLS handshake failed before the request was sent (no certificate verdict).
    case handshake(host: String, port: Int, why: String)
    /// An https URL for a server that answered the handshake in plain text.
    case notTLS(host: String, port: Int)
    /// The body came in slower than the minimum rate: `bytes` in `seconds`.
    case tooSlow(url: String, bytes: Int, seconds: Int, minimum: Int)
    /// `underlying` happened at a redirect's target: the first server was reached, and
    /// answered with the redirect (`url`).
    indirect case afterRedirect(FetchError, url: String)

    /// What went wrong, in words for the operator, with what to check where that is known.
    public var errorDescription: String? {
        switch self {
        case let .status(code, url):
            return "the server answered \(code) \(Self.reason(code)) for \(url)"
        case let .tooLarge(limit, url):
            return "\(url) is larger than the \(Self.size(limit)) limit; the download was stopped: serve a smaller file "
                + "(a picture needs no more than the screen's size: a 1920x1080 JPEG is well under 1 MiB)"
        case let .timedOut(seconds, url):
            return "\(url) did not answer in time (\(seconds) s)"
        case let .tooManyRedirects(url, limit):
            return "\(url) redirected more than \(limit) times"
        case .insecureRedirect(let url):
            return "\(url) redirected from https to plain http; refused"
        case let .redirectScheme(url, scheme):
            return "\(url) redirected to a \(scheme): URL; only http and https redirects are followed, so it was refused"
        case let .malformedURL(url, problem):
            return "cannot fetch \(url): \(problem); refused"
        case .unaskedNotModified(let url):
            return "the server answered 304 Not Modified for \(url) to a request that asked for the whole file: the "
                + "server (or a cache in front of it) is at fault; nothing was stored, and it is asked again next time"
        case let .transport(message, url):
            return "cannot fetch \(url): \(message)"
        case .fileMissing(let path):
            return "no such file: \(path)"
        case let .notAFile(path, kind):
            return "\(path) is \(kind), not a file: give the path of the file itself"
        case let .unreadableFile(path, why):
            return "cannot read \(path): \(why); check its owner and permissions"
        case let .unreadableAs(path, why, user):
            return "cannot read \(path) as the user \(user) (run as root, this command reads as \(user), never as root): "
                + "\(why); put the feed and its pictures in a folder every user can read, such as /srv/splashboard "
                + "(or let others read this one: chmod o+rx on each folder down to it, o+r on the files)"
        case .unsupportedScheme(let url):
            return "only http, https and file URLs can be fetched, not \(url)"
        case let .insideAddress(url, address, kind):
            return "\(url) leads to \(address), a \(kind) address inside the network; refused by the address rule "
                + "(allow-private-addresses = yes permits it)"
        case let .unresolvable(host, detail):
            return "could not resolve \(host)\(detail.isEmpty ? "" : " (\(detail))"): check the name in the URL, "
                + "the DNS settings and the network link"
        case let .connectionFailed(address, port, why):
            let place = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
            return "connection to \(place) \(why == "connection refused" ? "refused (is the server running on that port?)" : why)"
        case let .tls(host, detail):
            return "TLS: the certificate of \(host) is not valid (\(detail)); check the server's certificate and this "
                + "device's clock"
        case let .handshake(host, port, why):
            return "the TLS connection to \(host):\(port) failed (\(why))"
        case let .notTLS(host, port):
            return "the server at \(host):\(port) does not speak TLS (is the URL meant to be http://?)"
        case let .tooSlow(url, bytes, seconds, minimum):
            return "\(url) came in too slowly (\(Self.size(bytes)) in \(seconds) s, under the \(Self.size(minimum)) every "
                + "\(seconds) s a download must keep up); stopped"
        case let .afterRedirect(underlying, url):
            return "\(url) redirected, and then: \(underlying.errorDescription ?? "")"
        }
    }

    /// Whether the request is known never to have reached the server: its name did not
    /// resolve, no connection was made, the address rule or the URL's form refused it, TLS
    /// failed before it was sent (each chosen from libcurl's facts: its error code and the
    /// bytes it sent, never from its words). Only such a request may be sent again where
    /// each must arrive at most once.
    public var neverLeft: Bool {
        switch self {
        case .unresolvable, .connectionFailed, .insideAddress, .tls, .handshake, .notTLS, .unsupportedScheme, .malformedURL, .fileMissing,
             .notAFile, .unreadableFile, .unreadableAs:
            return true
        case .transport(let message, _): return message == FetchError.offline
        default: return false
        }
    }

    /// The words HTTP gives a status (RFC 9110), as the answer's line says them.
    static func reason(_ code: Int) -> String {
        let known = [
            300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
            307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
            402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
            407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
            411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
            415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a teapot",
            421: "Misdirected Request", 422: "Unprocessable Content", 425: "Too Early", 426: "Upgrade Required",
            428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
            451: "Unavailable For Legal Reasons", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
            507: "Insufficient Storage", 511: "Network Authentication Required",
        ]
        if let words = known[code] { return words }
        switch code {
        case 100..<200: return "Informational"
        case 200..<300: return "Success"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        default: return "Server Error"
        }
    }

    /// What a transport error says when the device has no network at all.
    static let offline = "this device has no network connection"

    /// What a file of mode `mode` is, in words ("a folder"), or nil for a regular file.
    static func fileKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }
}
