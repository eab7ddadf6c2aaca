import FoundationEssentials
import SplashCore
import SplashStorage

/// Poem pictures fetched, validated and cached by the network process; the display gets
/// the cached file's path, and takes it only when it names a file in the image cache.
public final class LinkedPoetryPictures: PoetryPictureFetching, @unchecked Sendable {
    private let link: NetworkLink
    private let cache: ImageCache

    /// Pictures asked for over `link`, taken only when they are files of `cache`.
    public init(link: NetworkLink, cache: ImageCache) {
        self.link = link
        self.cache = cache
    }

    /// Asks the network process for `url`; `completion` gets the cached file, or why there is
    /// none (also when the path it names is not in `cache`).
    public func load(_ url: URL, completion: @escaping (PictureFetch) -> Void) {
        link.send(.poemPicture(url: url.absoluteString), timeout: LinkedPoetry.timeout) { [cache] result in
            switch result {
            case .failure(let error):
                completion(.missing(reason: error.explained))
            case .success(let answer):
                let path: String
                switch answer.outcome {
                case .picture(let named): path = named
                default: return completion(.missing(reason: answer.outcome.failure ?? "no picture in the answer"))
                }
                guard cache.holds(path) else {
                    return completion(.missing(reason: "the network process named \(TerminalText.printable(path)), "
                                               + "not a file of the image cache"))
                }
                completion(.cached(path: path))
            }
        }
    }
}
