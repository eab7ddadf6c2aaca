import FoundationEssentials
import SplashPictures
import SplashServices
import SplashCore

/// The cache's room during one sync.
extension FeedSync {
    /// The cache's room during one sync: its cap and what is used, counted as pictures come.
    struct Room {
        var cap: Int
        var used: Int
        /// Whether room was made already this sync: once is enough (what nobody needs is the
        /// same for every picture of the sync), and each try reads the catalog and the folder.
        var madeRoom = false
        /// A picture did not fit after room was made: the rest of the sync fetches no new
        /// picture (each would be cut off at the room left, costing its bytes for nothing).
        var full = false
        var left: Int { full ? 0 : max(0, cap - used) }
    }
}
