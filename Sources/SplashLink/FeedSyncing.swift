import FoundationEssentials
import SplashCore

/// Runs feed syncs away from the loop's thread (in the network process) and answers with
/// the report and the catalog as stored afterwards.
public protocol FeedSyncing: AnyObject {
    /// Called with the sync's result.
    typealias Completion = (SyncResult) -> Void
    /// Starts one sync at `now` (the kiosk's clock); `completion` runs on another thread.
    func start(at now: Date, completion: @escaping Completion)
}
