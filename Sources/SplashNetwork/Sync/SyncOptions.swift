import FoundationEssentials
import SplashCore

/// What a `FeedSync` is asked to do, set once and read by every sync.
public struct SyncOptions {
    /// Seconds a sync may spend starting picture downloads: what is not started by then
    /// waits for the next sync (with one warning), so that silent picture hosts cannot hold
    /// a sync past the display's patience. Those started finish within their own limits.
    public var pictureSeconds: TimeInterval = 60
    /// Seconds one sync may take, all of its fetches together (240): what is not started by
    /// then waits for the next sync, and a download under way is cut at it. The display
    /// waits 600 s for a sync's answer; a sync never comes near it.
    public var budgetSeconds: TimeInterval = 240
    /// Why the device's database cannot be written, when it cannot (the store is in
    /// memory): every sync then fails with it, as what the operator must fix.
    public var unwritable: String?
    /// Whether pictures and clips refused at an earlier sync are fetched and checked again
    /// (`splashboard sync`, run by hand after a file was fixed in place); the kiosk's own
    /// syncs leave them until their address changes.
    public var retryRefused = false
    /// Whether every cached picture and clip is asked for again, whatever its age
    /// (`splashboard sync`, run by hand after a file was replaced on its server).
    public var revalidateAll = false
    /// Seconds after which a cached picture or clip is asked for again when the feed has not
    /// changed and its server set no `max-age` (`revalidate-after`).
    public var revalidateAfter: TimeInterval = 3600
    /// Whether this device's fonts can draw a character: text they cannot is a feed warning.
    public var canDraw: ((Unicode.Scalar) -> Bool)?

    public init() {}
}
