import FoundationEssentials
import SplashCore
import SplashStorage

/// The live poetry provider seen from the display: the network process fetches the poem
/// (`poetry-url`, the jinrishici v1 shape, with the product's limits) and this side makes
/// the timeline of it: one entry, reloaded after the refresh period.
public final class LinkedPoetry: TimelineProvider, @unchecked Sendable {
    /// The longest a poem or its picture may take before the network process is restarted.
    public static let timeout: TimeInterval = 120

    private let link: NetworkLink
    /// Where each poem's picture comes from (`poetry-image-url`); nil: poems have none.
    public let imageURL: URL?
    /// Seconds a poem stays before the next is asked for.
    public let refresh: TimeInterval

    /// Poems over `link`, each shown with a picture from `imageURL` and fetched again after
    /// `refresh` seconds.
    public init(link: NetworkLink, imageURL: URL?, refresh: TimeInterval) {
        self.link = link
        self.imageURL = imageURL
        self.refresh = refresh
    }

    /// The fixed entry shown before any poem has come.
    public func placeholder() -> PoetryEntry { .placeholder }

    /// The placeholder: a snapshot does not wait for the network process.
    public func snapshot(at date: Date) -> PoetryEntry { .placeholder }

    /// Asks the network process for a poem; `completion` gets its one-entry timeline, or why
    /// there is none (also when the poem it sent is beyond the limits).
    public func timeline(at date: Date, completion: @escaping (Result<Timeline<PoetryEntry>, Error>) -> Void) {
        link.send(.poem, timeout: Self.timeout) { [imageURL, refresh] result in
            switch result {
            case .failure(let error): completion(.failure(error))
            case .success(let answer):
                switch answer.outcome {
                case .poem(let sent):
                    do {
                        let poem = try sent.checked()
                        completion(.success(poem.timeline(imageURL: imageURL, at: date, refresh: refresh)))
                    } catch {
                        completion(.failure(NetworkLinkError.failed("the network process sent a poem beyond the limits: "
                                                                    + error.explained)))
                    }
                default:
                    completion(.failure(NetworkLinkError.failed(answer.outcome.failure ?? "no poem in the answer")))
                }
            }
        }
    }
}
