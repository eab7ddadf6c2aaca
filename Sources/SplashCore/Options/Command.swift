import FoundationEssentials

/// What one invocation of `splashboard` does.
public enum Command: Equatable, Sendable {
    /// Run the kiosk (the default).
    case run
    /// One sync now; print a summary.
    case sync
    /// List the stored campaigns: a table, or JSON with `--json`; with `--thumbnails DIR`
    /// also write each stored thumbnail there as a JPEG file.
    case campaigns(json: Bool, thumbnails: String?)
    /// Empty the image cache (the ledger is kept).
    case cacheClear
    /// Ask the running kiosk what it shows (`--json`: as JSON).
    case status(json: Bool)
    /// Ask the running kiosk for the frame on its screen, written to this PNG file.
    case screenshot(path: String)
    /// Turn the running kiosk's screen on or off until its schedule next changes, or back
    /// to the schedule.
    case screen(ScreenCommand)
    /// Read and validate a feed as a sync would, touching no device data.
    case feedCheck(feed: URL, json: Bool)
    /// Draw each campaign's screens of a feed at each size into a folder, on a throwaway database.
    case preview(feed: URL, sizes: [Size], out: String)
    /// Add (`on`) or remove the XDG autostart entry that runs the kiosk in this user's
    /// desktop session.
    case autostart(on: Bool)
    /// Print usage.
    case help
    /// Print the version.
    case version
}
