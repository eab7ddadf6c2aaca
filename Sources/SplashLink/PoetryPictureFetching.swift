import FoundationEssentials
import SplashCore

/// Fetches poem pictures into the image cache, away from the loop's thread.
public protocol PoetryPictureFetching: AnyObject {
    /// Fetches `url`; `completion` gets the cached file, or why there is none.
    func load(_ url: URL, completion: @escaping (PictureFetch) -> Void)
}
