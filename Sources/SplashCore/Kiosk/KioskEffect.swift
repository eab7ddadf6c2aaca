import FoundationEssentials

/// Work the shell does for the reducer, in the order given.
public enum KioskEffect: Equatable, Sendable {
    /// Make sure `picture` (the splash's picture; a clip's poster) opens and decodes, then
    /// commit one show to the ledger, before the frame that shows it: only a splash that
    /// reaches the screen is a show. Answered with `showRecorded`; `pictureUnusable` when
    /// the picture is gone or does not decode (nothing is recorded); `showNotRecorded` when
    /// the write fails. The show is announced only after the first.
    case recordShow(campaignID: Campaign.ID, at: Date, media: MediaKind, picture: String)
    /// The picture of a recorded show counts as used, for the cache's eviction order.
    case notePictureUsed(path: String)
    /// Tell the network process that an outbox (proof of play, tracking pings) has something.
    case wakeOutbox
    /// Note how the last show of the campaign ended.
    case endShow(campaignID: Campaign.ID, by: SkipReason, at: Date)
    /// Start a feed sync in the background; it answers with `feedFetched`.
    case fetchFeed
    /// Ask the poetry provider for a timeline; it answers with `poetryLoaded` or `poetryFailed`.
    case reloadPoetry
    /// Fetch the poem's picture into the cache; answered with `poetryImageLoaded`.
    case loadPoetryImage(URL)
    /// Keep this entry as the last good one (shown at the next start).
    case savePoetry(PoetryEntry)
    /// Read what the operator view needs, with the thumbnails of these campaigns (the page
    /// on the screen); answered with `operatorInfoLoaded`.
    case loadOperatorInfo(thumbnailsOf: [Campaign.ID])
    /// Read a campaign's last shows from the ledger; answered with `campaignShowsLoaded`.
    case loadCampaignShows(campaignID: Campaign.ID)
    /// Start decoding, on another thread, the picture of the splash the attract loop shows
    /// next, so that the loop does not wait on a decode when the splash comes.
    case decodeAhead(path: String)
    /// Keep `picture` as the one the next start of the kiosk is expected to show first (the
    /// splash it would choose now), so that its frame is composed while that start reads
    /// its database. A guess for speed only: that start still chooses for itself.
    case expectFirstPicture(String)
    /// Light the screens (`on`) or darken them, by the means `screen-off` names, as the
    /// device has them; nothing is drawn while they are dark. Lighting is answered with
    /// `screenLit` once done.
    case powerScreen(on: Bool)
    /// Start the media process on the clip of video show `show` (its frames scaled for the
    /// screen); its frames are answered with `videoFrameReady`, a failure with `videoFailed`.
    /// `blends`: its frames are laid over the background (an animated GIF's transparency).
    case startVideo(show: Int, clip: VideoClip, blends: Bool)
    /// Draw the frame of video show `show` in `slot` with the pill over it and present it;
    /// the slot is kept until the next frame replaces it, then freed.
    case presentVideoFrame(show: Int, slot: Int)
    /// Give the frame of video show `show` in `slot` back unshown (it came too late).
    case dropVideoFrame(show: Int, slot: Int)
    /// Stop the media process; `poster`: the splash stays up, so its picture is drawn again.
    case stopVideo(poster: Bool)
    /// Keep a media process started ahead of the next video show (`true`: a campaign has a
    /// clip that plays and the screen is on; started at once, so that it loads while the
    /// first show is recorded), or let it go. A failure answers `mediaWarmFailed`.
    case keepMediaWarm(Bool)
    /// A video show used the process kept: start another once the loop is next idle (not
    /// while the frame after the show is drawn), when no clip plays.
    case replaceWarmMedia
    /// Announce an event on the log.
    case emit(KioskEvent)
    /// Tell the service manager the kiosk is up (systemd's `READY=1`): at the first frame, or
    /// at a start in the dark, where no frame is coming to say it. Once.
    case serviceReady
    /// Tell the service manager the screen went dark (`dark`) or lit, with the status line
    /// `status`: its watchdog keeps a slower pace while the screen is dark. Only once ready.
    case serviceScreen(dark: Bool, status: String)
    /// Write a journal entry for the screen's change, saying `summary`.
    case journalScreen(summary: String)
}
