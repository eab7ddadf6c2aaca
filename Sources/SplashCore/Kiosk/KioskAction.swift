
/// Everything that can happen to the kiosk, named after the event.
public enum KioskAction: Equatable, Sendable {
    /// The process is ready to draw its first frame.
    case started(Instant)
    /// Time has passed (a deadline was reached, or the loop woke for another reason).
    case tick(Instant)
    /// The shell looked at timesyncd (at start, and whenever it wakes): whether the wall
    /// clock may be trusted follows (`ClockTrust`).
    case clockObserved(TimeSync, Instant)
    /// A finger, mouse button or scripted tap went down at a point in layout coordinates.
    case pressed(Point, Instant)
    /// It came up again.
    case released(Point, Instant)
    case keyPressed(Key, Instant)
    /// The drawable area changed size (window resize, display mode change).
    case resized(Size)
    /// The campaigns and what is known about them changed (a sync, a store load), with the
    /// feed's message and screen schedule.
    case catalogLoaded([CatalogEntry], message: String?, screen: FeedScreen?)
    /// Something other than this loop changed the database (the network process's sync, a
    /// hand-run `splashboard sync`, `cache clear`): the catalog as it stands now, with the
    /// feed's message and screen schedule. The next splash is chosen from it.
    case catalogChanged([CatalogEntry], message: String?, screen: FeedScreen?, Instant)
    /// A sync was done before the start (a local feed read for the first frame): taken in
    /// place of the first sync the core would ask for.
    case syncedBeforeStart(SyncResult)
    /// A sync finished; with a new catalog (and the feed's message and screen schedule)
    /// when the store changed.
    case feedFetched(SyncReport, catalog: [CatalogEntry]?, message: String?, screen: FeedScreen?, Instant)
    /// `splashboard screen on|off|auto` over the control socket.
    case screenCommanded(ScreenCommand, Instant)
    /// `powerScreen(on: true)` is done: the screen is lit (or as lit as its means could make it).
    case screenLit(Instant)
    /// The poetry provider answered with a timeline.
    case poetryLoaded(Timeline<PoetryEntry>, Instant)
    /// The poetry provider failed.
    case poetryFailed(reason: String, Instant)
    /// The poem's picture arrived (a cached file) or could not be had (nil).
    case poetryImageLoaded(url: String, path: String?, reason: String?, Instant)
    /// What the operator view shows that the state does not hold (thumbnails, feed state,
    /// cache use, system), read by the shell when the view opens.
    case operatorInfoLoaded(OperatorInfo, Instant)
    /// A campaign's last shows, for its page in the operator view (newest first).
    case campaignShowsLoaded(campaignID: Campaign.ID, shows: [ShowRecord], Instant)
    /// An image that was about to be shown could not be decoded.
    case imageFailed(path: String, reason: String, Instant)
    /// The ledger holds the show of `campaignID` that `recordShow` asked for: it may be
    /// announced and presented.
    case showRecorded(campaignID: Campaign.ID, pictureSize: Size? = nil)
    /// The picture a show of `campaignID` was about to use is gone from the cache or does
    /// not decode: nothing was recorded.
    case pictureUnusable(campaignID: Campaign.ID, path: String, PictureTrouble, Instant)
    /// A frame of a new screen (of this kind) was presented; `sinceStart` is the
    /// milliseconds since the process started (the first frame's figure).
    case framePresented(Scene.Kind, sinceStart: Int, Instant)
    /// The ledger refused the show of `campaignID` that `recordShow` asked for (a full
    /// disk, a locked or damaged database): the campaign must not be shown.
    case showNotRecorded(campaignID: Campaign.ID, reason: String, Instant)
    /// The media process handed over a frame of video show `show` in `slot`, due `pts`
    /// seconds after the clip's first.
    case videoFrameReady(show: Int, slot: Int, pts: Double, Instant)
    /// The media process of video show `show` stopped, sent what it should not, or could
    /// not start.
    case videoFailed(show: Int, reason: String, Instant)
    /// A media process could not be started ahead of the next video show (`keepMediaWarm`).
    case mediaWarmFailed(reason: String)
    /// On a virtual clock, the shell has waited `waited` real seconds for frame `step` of
    /// video show `show` (`VideoPlayback.awaitedStep`) and none came.
    case videoFrameAwaited(show: Int, step: Int, waited: Seconds, Instant)

    /// When the action happened, for those that carry the time (the screens derived from
    /// the state are rebuilt with it).
    public var instant: Instant? {
        switch self {
        case .started(let now), .tick(let now), .clockObserved(_, let now), .pressed(_, let now), .released(_, let now),
             .keyPressed(_, let now), .catalogChanged(_, _, _, let now), .feedFetched(_, _, _, _, let now),
             .screenCommanded(_, let now), .screenLit(let now), .poetryLoaded(_, let now), .poetryFailed(_, let now),
             .poetryImageLoaded(_, _, _, let now), .operatorInfoLoaded(_, let now), .campaignShowsLoaded(_, _, let now),
             .imageFailed(_, _, let now), .pictureUnusable(_, _, _, let now), .framePresented(_, _, let now),
             .showNotRecorded(_, _, let now), .videoFrameReady(_, _, _, let now), .videoFailed(_, _, let now),
             .videoFrameAwaited(_, _, _, let now):
            return now
        case .resized, .catalogLoaded, .syncedBeforeStart, .showRecorded, .mediaWarmFailed:
            return nil
        }
    }
}
