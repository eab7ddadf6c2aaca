import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A download that did not complete, in words an operator can act on.
public enum FetchError: LocalizedError, Equatable {
    case status(Int, String)
    case tooLarge(limit: Int, url: String)
    case timedOut(seconds: Int, url: String)
    case tooManyRedirects(String)
    case insecureRedirect(String)
    case transport(String, url: String)
    case fileMissing(String)
    case unsupportedScheme(String)

    public var errorDescription: String? {
        switch self {
        case let .status(code, url):
            return "the server answered \(code) \(HTTPURLResponse.localizedString(forStatusCode: code)) for \(url)"
        case let .tooLarge(limit, url):
            return "\(url) is larger than the \(Self.size(limit)) limit; the download was stopped"
        case let .timedOut(seconds, url):
            return "\(url) did not answer in time (\(seconds) s)"
        case .tooManyRedirects(let url):
            return "\(url) redirected more than 5 times"
        case .insecureRedirect(let url):
            return "\(url) redirected from https to plain http; refused"
        case let .transport(message, url):
            return "cannot fetch \(url): \(message)"
        case .fileMissing(let path):
            return "no such file: \(path)"
        case .unsupportedScheme(let url):
            return "only http, https and file URLs can be fetched, not \(url)"
        }
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
