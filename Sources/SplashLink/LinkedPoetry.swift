import Foundation
import SplashCore
import SplashStorage

/// The live poetry provider seen from the display: the network process fetches the poem
/// (`poetry-url`, the jinrishici v1 shape, with the product's limits) and this side makes
/// the timeline of it: one entry, reloaded after the refresh period.
public final class LinkedPoetry: TimelineProvider, @unchecked Sendable {
    /// The longest a poem or its picture may take before the network process is restarted.
    public static let timeout: TimeInterval = 120

    private let link: NetworkLink
    public let imageURL: URL?
    public let refresh: TimeInterval

    public init(link: NetworkLink, imageURL: URL?, refresh: TimeInterval) {
        self.link = link
        self.imageURL = imageURL
        self.refresh = refresh
    }

    public func placeholder() -> PoetryEntry { .placeholder }

    public func snapshot(at date: Date) -> PoetryEntry { .placeholder }

    public func timeline(at date: Date, completion: @escaping (Result<Timeline<PoetryEntry>, Error>) -> Void) {
        link.send(.poem, now: date, timeout: Self.timeout) { [imageURL, refresh] result in
            switch result {
            case .failure(let error): completion(.failure(error))
            case .success(let answer):
                if let sent = answer.poem {
                    do {
                        let poem = try sent.checked()
                        completion(.success(poem.timeline(imageURL: imageURL, at: date, refresh: refresh)))
                    } catch {
                        completion(.failure(NetworkLinkError.failed("the network process sent a poem beyond the limits: "
                                                                    + error.localizedDescription)))
                    }
                } else {
                    completion(.failure(NetworkLinkError.failed(answer.error ?? "no poem in the answer")))
                }
            }
        }
    }
}
