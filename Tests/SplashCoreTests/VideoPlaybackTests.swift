import Foundation
import Testing
@testable import SplashCore

/// A campaign with a clip: the poster until the first frame, frames paced by their times on
/// the manual clock, late ones dropped, the countdown never waiting for them, and a media
/// process that fails or goes quiet ending the clip while the poster stays.
@Suite struct VideoPlaybackTests {
    let facts = VideoFacts(container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "h264", width: 1920, height: 1080, fps: 30,
                           duration: 2.4, framesDecoded: 3, decoder: "h264")

    /// What a start with campaign "a"'s clip next says and asks for: a media process kept
    /// ready first, the placeholder poem, the screen on, and the show recorded as a video's.
    func videoStarted(at date: Date) -> [KioskEffect] {
        [.keepMediaWarm(true), .placeholderPoem, .emit(.screen(on: true, reason: .start, until: nil)),
         .recordShow(campaignID: "a", at: date, media: .video, picture: "/img/a.jpg")]
    }

    /// The first video show recorded (4 left): its poster, splash and 3 s countdown, then the clip.
    var firstVideoShowRecorded: [KioskEffect] {
        [.notePictureUsed(path: "/img/a.jpg"), .emit(.splash(campaign: "a", remaining: 4, image: "/img/a.jpg", media: .video)),
         .emit(.countdown(value: 3)), .expectFirstPicture("/img/a.jpg"), .notePictureUsed(path: "/cache/clip"),
         .startVideo(show: 1, clip: VideoClip(path: "/cache/clip", facts: facts), blends: false)]
    }

    func videoState(countdown: Int? = nil) -> KioskState {
        var a = entry("a")
        a.campaign.countdown = countdown
        a.video = VideoClip(path: "/cache/clip", facts: facts)
        return makeState([a])
    }

    /// Started and recorded, expecting exactly the effects up to the clip's start (its
    /// countdown `countdown`: the campaign's own, or the clip's length rounded up).
    func start(_ state: inout KioskState, _ clock: ManualClock, countdown: Int = 3,
               sourceLocation: SourceLocation = #_sourceLocation) {
        reduce(&state, .started(clock.now), expecting: [
            .keepMediaWarm(true), .placeholderPoem, .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: clock.now.date, media: .video, picture: "/img/a.jpg"),
        ], sourceLocation: sourceLocation)
        reduce(&state, .showRecorded(campaignID: "a"), expecting: [
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 4, image: "/img/a.jpg", media: .video)),
            .emit(.countdown(value: countdown)),
            .expectFirstPicture("/img/a.jpg"),
            .notePictureUsed(path: "/cache/clip"),
            .startVideo(show: 1, clip: VideoClip(path: "/cache/clip", facts: facts), blends: false),
        ], sourceLocation: sourceLocation)
    }

    @Test func aClipsCountdownIsItsLengthAndItStartsOnceTheShowIsRecorded() {
        var state = videoState()
        let clock = ManualClock()
        // Recorded as a video show before anything is played.
        reduce(&state, .started(clock.now), expecting: videoStarted(at: clock.now.date))
        // Its 2.4 s round up to a countdown of 3.
        reduce(&state, .showRecorded(campaignID: "a"), expecting: firstVideoShowRecorded)
        // The campaign's own countdown wins.
        var own = videoState(countdown: 7)
        start(&own, clock, countdown: 7)
    }

    let gif = VideoFacts(container: "gif", codec: "gif", width: 320, height: 240, fps: 10, duration: 2, framesDecoded: 20,
                         decoder: "gif", frames: 20)

    /// An animated GIF plays as a clip does, once its show is recorded, but it is a picture:
    /// recorded and announced as one, on the kiosk's countdown rather than its length.
    @Test func anAnimatedGIFPlaysOnThePicturesCountdownAndCountsAsAPicture() {
        var a = entry("a")
        a.video = VideoClip(path: "/img/a.jpg", facts: gif)
        var state = makeState([a])
        let clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: [
            .keepMediaWarm(true),
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: clock.now.date, media: .picture, picture: "/img/a.jpg"),
        ])
        reduce(&state, .showRecorded(campaignID: "a"), expecting: [
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 4, image: "/img/a.jpg", media: .picture)),
            .emit(.countdown(value: state.settings.countdown)),
            .expectFirstPicture("/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .startVideo(show: 1, clip: VideoClip(path: "/img/a.jpg", facts: gif), blends: true),
        ])
        #expect(gif.summary == "animated gif 320x240 10 fps 2.0 s")
    }

    /// An animation's limits: its size, its length, every frame decoded, and its frames
    /// within the decode budget.
    @Test func anAnimationIsHeldToItsLimits() {
        #expect(VideoLimits.problem(gif) == nil && AnimationLimits.problem(gif) == nil)
        var wide = gif
        (wide.width, wide.height) = (4000, 100)
        #expect(AnimationLimits.problem(wide)?.contains("up to 3840x2160") == true)
        var endless = gif
        endless.frames = nil
        #expect(AnimationLimits.problem(endless)?.contains("decode budget") == true)
        var heavy = gif
        (heavy.width, heavy.height, heavy.frames, heavy.framesDecoded) = (3840, 2160, 61, 61)
        #expect(AnimationLimits.problem(heavy)?.contains("61 frames at 3840x2160") == true)
        var broken = gif
        broken.framesDecoded = 7
        #expect(AnimationLimits.problem(broken) == "its frame 8 of 20 does not decode")
        var long = gif
        long.duration = 75
        #expect(AnimationLimits.problem(long)?.contains("up to 60 s") == true)
        var other = gif
        other.codec = "h264"
        #expect(AnimationLimits.problem(other) != nil)
        // Stored and read back.
        #expect(VideoFacts.from(json: gif.json) == gif)
    }

    /// A GIF's header: its kind and canvas size, its trailer, and where its first frame lies
    /// (past the colour table and the extensions before it).
    @Test func aGIFHeaderGivesItsSizeAndFirstFrame() throws {
        var bytes = Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0x81, 0, 0]  // 320x240, 4-colour global table
        bytes += Array(repeating: 0, count: 12)
        bytes += [0x21, 0xF9, 4, 0x01, 10, 0, 0, 0]  // a graphic control extension
        bytes += [0x21, 0xFF, 3, 0x41, 0x42, 0x43, 2, 0x01, 0x00, 0]  // an application extension, two sub-blocks
        bytes += [0x2C, 10, 0, 20, 0, 100, 0, 50, 0, 0]  // the first frame: 100x50 at 10,20
        let header = try ImageHeader.parse(bytes)
        #expect(header == ImageHeader(kind: .gif, width: 320, height: 240))
        #expect(ImageHeader.gifFirstFrame(bytes) == Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(ImageHeader.gifFirstFrame(Array(bytes.prefix(40))) == nil)
        #expect(ImageHeader.isComplete(.gif, tail: bytes + [0x02, 0x3B]) && !ImageHeader.isComplete(.gif, tail: bytes))
        #expect(throws: ImageError.tooLarge(width: 9000, height: 240)) {
            try ImageHeader.parse(Array("GIF87a".utf8) + [0x28, 0x23, 0xF0, 0x00])
        }
        #expect(throws: ImageError.truncated("GIF")) { try ImageHeader.parse(Array("GIF89a".utf8)) }
        // A stray byte before the descriptor is skipped, as SDL_image skips it.
        var stray = Array(bytes.prefix(43)) + [0x00] + Array(bytes.dropFirst(43))
        #expect(ImageHeader.gifFirstFrame(stray) == Rect(x: 10, y: 20, width: 100, height: 50))
        // A first frame larger than its canvas is refused before anything decodes it.
        stray = Array(bytes.prefix(48)) + [0x60, 0xEA, 0x60, 0xEA] + Array(bytes.dropFirst(52))
        #expect(throws: ImageError.malformed("a GIF whose first frame (60000×60000 at 10,20) lies outside its 320×240 canvas")) {
            try ImageHeader.checkGIFFirstFrame(stray, header: header)
        }
        #expect(try ImageHeader.checkGIFFirstFrame(bytes, header: header) == Rect(x: 10, y: 20, width: 100, height: 50))
    }

    /// A media process is kept ready while a campaign has a clip that plays and the screen
    /// is on: asked for first at the start (it loads while the show is recorded), let go
    /// when the screen goes off or no clip is left.
    @Test func aMediaProcessIsKeptWarmWhileAClipCanPlay() {
        var state = videoState()
        let clock = ManualClock()
        reduce(&state, .started(clock.now), expecting: videoStarted(at: clock.now.date))
        // A show recorded with shows left keeps it; the last one lets it go.
        reduce(&state, .showRecorded(campaignID: "a"), expecting: firstVideoShowRecorded)
        #expect(state.mediaWarm)
        reduce(&state, .screenCommanded(.off, clock.now), expecting: [
            .keepMediaWarm(false),
            .stopVideo(poster: false),
            .emit(.videoEnded(presented: 0, dropped: 0)),
            .endShow(campaignID: "a", by: .screenOff, at: clock.now.date),
            .emit(.skip(by: .screenOff)),
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .command, until: nil)),
            .serviceReady,
            .serviceScreen(dark: true, status: "screen off (splashboard screen off)"),
            .journalScreen(summary: "screen off (splashboard screen off)"),
        ])
        #expect(!state.mediaWarm)
        reduce(&state, .screenCommanded(.on, clock.now), expecting: [
            .keepMediaWarm(true),
            .powerScreen(on: true),
            .emit(.screen(on: true, reason: .command, until: nil)),
            .serviceScreen(dark: false, status: "screen on (splashboard screen on)"),
            .journalScreen(summary: "screen on (splashboard screen on)"),
        ])
        #expect(state.mediaWarm)
        // Its last show starts its own process: none is kept for after it.
        var last = videoState()
        last.catalog[0].shows = last.catalog[0].campaign.showLimit - 1
        reduce(&last, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: clock.now.date, media: .video, picture: "/img/a.jpg"),
        ])
        #expect(!last.mediaWarm)
        reduce(&last, .showRecorded(campaignID: "a"), expecting: [
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 0, image: "/img/a.jpg", media: .video)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/assets/default.jpg"),
            .notePictureUsed(path: "/cache/clip"),
            .startVideo(show: 1, clip: last.catalog[0].video!, blends: false),
        ])
        // The feed drops the clip: no process is kept.
        var still = entry("a")
        still.video = nil
        reduce(&state, .feedFetched(SyncReport(status: .ok, campaigns: 1), catalog: [still], message: nil, screen: nil, clock.now),
               expecting: [.keepMediaWarm(false), .emit(.sync(status: .ok, campaigns: 1, error: nil, ms: nil, reason: nil))])
        // Without a clip, none is ever asked for.
        var pictures = makeState([entry("a")])
        reduce(&pictures, .started(clock.now), expecting: [
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: clock.now.date, media: .picture, picture: "/img/a.jpg"),
        ])
    }

    /// The show took the process kept ready: once it ends, another is asked for (while a clip
    /// can still play); one that cannot be started is said once and never asked for again.
    @Test func aUsedMediaProcessIsReplacedAndOneThatCannotStartIsGivenUp() {
        var state = videoState()
        var clock = ManualClock()
        send(&state, .started(clock.now), expecting: [
            .keepMediaWarm(true),
            .placeholderPoem,
            .emit(.screen(on: true, reason: .start, until: nil)),
            .recordShow(campaignID: "a", at: clock.now.date, media: .video, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 4, image: "/img/a.jpg", media: .video)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
            .notePictureUsed(path: "/cache/clip"),
            .startVideo(show: 1, clip: VideoClip(path: "/cache/clip", facts: facts), blends: false),
        ])
        #expect(state.mediaWarm && state.video?.requested == true)
        // The splash ends (a key): its clip stops, and one more is kept ready.
        send(&state, .keyPressed(.escape, clock.advance(1)), expecting: [
            .stopVideo(poster: false),
            .emit(.videoEnded(presented: 0, dropped: 0)),
            .endShow(campaignID: "a", by: .key, at: clock.now.date),
            .emit(.skip(by: .key)),
            .emit(.detail(campaign: "a")),
            .replaceWarmMedia,
        ])
        // A tick that ends no show asks for none.
        send(&state, .tick(clock.advance(0.5)), expecting: [])
        // The shell could not start it: said once, let go, and never asked for again.
        reduce(&state, .mediaWarmFailed(reason: "it is not installed"), expecting: [
            .keepMediaWarm(false),
            .emit(.warning(message: "cannot start the media process ahead of a video show: it is not installed; each video show "
                                    + "starts its own")),
        ])
        #expect(!state.mediaWarm)
        reduce(&state, .screenCommanded(.off, clock.now), expecting: [
            .powerScreen(on: false),
            .emit(.screen(on: false, reason: .command, until: nil)),
            .serviceReady,
            .serviceScreen(dark: true, status: "screen off (splashboard screen off)"),
            .journalScreen(summary: "screen off (splashboard screen off)"),
        ])
        send(&state, .screenCommanded(.on, clock.advance(1)), expecting: [
            .powerScreen(on: true),
            .emit(.screen(on: true, reason: .command, until: nil)),
            .serviceScreen(dark: false, status: "screen on (splashboard screen on)"),
            .journalScreen(summary: "screen on (splashboard screen on)"),
            .recordShow(campaignID: "a", at: clock.now.date, media: .video, picture: "/img/a.jpg"),
            .notePictureUsed(path: "/img/a.jpg"),
            .emit(.splash(campaign: "a", remaining: 3, image: "/img/a.jpg", media: .video)),
            .emit(.countdown(value: 3)),
            .expectFirstPicture("/img/a.jpg"),
            .notePictureUsed(path: "/cache/clip"),
            .startVideo(show: 2, clip: VideoClip(path: "/cache/clip", facts: facts), blends: false),
        ])
        #expect(!state.mediaWarm)
    }

    @Test func framesArePresentedWhenDueAndLateOnesDropped() {
        var state = videoState()
        var clock = ManualClock()
        start(&state, clock)
        // The first frame goes up at once and sets the clock of the others.
        reduce(&state, .videoFrameReady(show: 1, slot: 0, pts: 0, clock.advance(0.05)), expecting: [
            .emit(.videoStarted(ms: 50, decoder: "h264")),
            .presentVideoFrame(show: 1, slot: 0),
        ])
        // The next is due a frame later: it waits, and the loop's deadline is its time.
        reduce(&state, .videoFrameReady(show: 1, slot: 1, pts: 1.0 / 30, clock.now), expecting: [])
        #expect(abs((state.nextDeadline ?? 0) - (0.05 + 1.0 / 30)) < 1e-9)
        reduce(&state, .tick(clock.advance(1.0 / 30)), expecting: [.presentVideoFrame(show: 1, slot: 1)])
        // Two frames behind: the older is dropped, the newer shown.
        reduce(&state, .videoFrameReady(show: 1, slot: 2, pts: 2.0 / 30, clock.now), expecting: [])
        reduce(&state, .videoFrameReady(show: 1, slot: 3, pts: 3.0 / 30, clock.now), expecting: [])
        reduce(&state, .tick(clock.advance(3.0 / 30)), expecting: [.dropVideoFrame(show: 1, slot: 2), .presentVideoFrame(show: 1, slot: 3)])
        #expect(state.video?.dropped == 1 && state.video?.presented == 3)
        // A frame of an earlier show is given back unshown.
        reduce(&state, .videoFrameReady(show: 9, slot: 0, pts: 0, clock.now), expecting: [.dropVideoFrame(show: 9, slot: 0)])
    }

    @Test func theCountdownGoesOnWithoutFramesAndTheClipStopsWithTheSplash() {
        var state = videoState()
        var clock = ManualClock()
        start(&state, clock)
        reduce(&state, .videoFrameReady(show: 1, slot: 0, pts: 0, clock.now), expecting: [
            .emit(.videoStarted(ms: 0, decoder: "h264")),
            .presentVideoFrame(show: 1, slot: 0),
        ])
        // A second passes with frames flowing: the number goes down on time.
        // Each tick shows the frame due; the first at or past a second also says the number.
        for i in 1...31 {
            reduce(&state, .videoFrameReady(show: 1, slot: i % 4, pts: Double(i) / 30, clock.now), expecting: [])
            let now = clock.advance(1.0 / 30)
            reduce(&state, .tick(now), expecting: [.presentVideoFrame(show: 1, slot: i % 4)]
                   + (now.uptime >= 1 && now.uptime - 1.0 / 30 < 1 ? [.emit(.countdown(value: 2))] : []))
        }
        #expect(state.video?.presented == 32)
        // A tap on the pill skips at once; the clip stops, the poster need not come back.
        reduce(&state, .pressed(state.skipButton.frame.center, clock.advance(0.01)), expecting: [
            .stopVideo(poster: false),
            .emit(.videoEnded(presented: 32, dropped: 0)),
            .endShow(campaignID: "a", by: .tap, at: clock.now.date),
            .emit(.skip(by: .tap)),
            .emit(.detail(campaign: "a")),
            .replaceWarmMedia,
        ])
        #expect(state.video == nil)
    }

    /// On a virtual clock the loop waits in real time for the awaited frame and says how
    /// long: the core gives the clip up at its patience, and only for the frame still awaited.
    @Test func onAVirtualClockAFrameIsAwaitedForTenRealSecondsAtMost() {
        var state = videoState(countdown: 10)
        let clock = ManualClock()
        start(&state, clock, countdown: 10)
        #expect(state.video?.awaitsFrame == true && state.video?.awaitedStep == 0)
        reduce(&state, .videoFrameAwaited(show: 1, step: 0, waited: 9.9, clock.now), expecting: [])
        // About another show, or a frame no longer awaited: nothing.
        reduce(&state, .videoFrameAwaited(show: 2, step: 0, waited: 30, clock.now), expecting: [])
        reduce(&state, .videoFrameReady(show: 1, slot: 0, pts: 0, clock.now), expecting: [
            .emit(.videoStarted(ms: 0, decoder: "h264")),
            .presentVideoFrame(show: 1, slot: 0),
        ])
        #expect(state.video?.awaitedStep == 1)
        reduce(&state, .videoFrameAwaited(show: 1, step: 0, waited: 30, clock.now), expecting: [])
        reduce(&state, .videoFrameAwaited(show: 1, step: 1, waited: VideoPlayback.virtualPatience, clock.now), expecting: [
            .stopVideo(poster: true),
            .emit(.error(message: "video /cache/clip stopped: the media process sent no frame in 10 s; its picture stays on the screen")),
            .replaceWarmMedia,
        ])
        #expect(state.video == nil)
    }

    @Test func aQuietOrFailingMediaProcessEndsTheClipAndThePosterStays() {
        var state = videoState(countdown: 10)
        var clock = ManualClock()
        start(&state, clock, countdown: 10)
        // No first frame in 5 s: given up, with an error; the splash stays up with its poster.
        #expect(state.nextDeadline == 1)
        reduce(&state, .tick(clock.advance(1)), expecting: [.emit(.countdown(value: 9))])
        #expect(state.video?.hangsAt == 5)
        reduce(&state, .tick(clock.advance(4)), expecting: [
            .stopVideo(poster: true),
            .emit(.error(message: "video /cache/clip stopped: the media process sent no frame for 5 s; its picture stays on the screen")),
            .emit(.countdown(value: 5)),
            .replaceWarmMedia,
        ])
        if case .splash(let splash) = state.scene { #expect(splash.media == .video) } else { Issue.record("left the splash") }
        // A failure said by the shell: the same, once.
        var failing = videoState()
        start(&failing, ManualClock())
        reduce(&failing, .videoFailed(show: 1, reason: "the media process was killed by signal 9", clock.now), expecting: [
            .stopVideo(poster: true),
            .emit(.error(message: "video /cache/clip stopped: the media process was killed by signal 9; its picture stays on the screen")),
            .replaceWarmMedia,
        ])
        reduce(&failing, .videoFailed(show: 1, reason: "again", clock.now), expecting: [])
        // A slot handed over twice is garbage.
        var garbage = videoState()
        start(&garbage, ManualClock())
        reduce(&garbage, .videoFrameReady(show: 1, slot: 0, pts: 0, clock.now), expecting: [
            .emit(.videoStarted(ms: 5000, decoder: "h264")),
            .presentVideoFrame(show: 1, slot: 0),
        ])
        reduce(&garbage, .videoFrameReady(show: 1, slot: 1, pts: 1, clock.now), expecting: [])
        reduce(&garbage, .videoFrameReady(show: 1, slot: 1, pts: 2, clock.now), expecting: [
            .stopVideo(poster: true),
            .emit(.error(message: "video /cache/clip stopped: the media process handed over a frame slot twice; its picture stays on the screen")),
            .replaceWarmMedia,
        ])
        // A frame due far ahead would hold the clip still: given up too.
        var ahead = videoState()
        start(&ahead, ManualClock())
        reduce(&ahead, .videoFrameReady(show: 1, slot: 0, pts: 0, clock.now), expecting: [
            .emit(.videoStarted(ms: 5000, decoder: "h264")),
            .presentVideoFrame(show: 1, slot: 0),
        ])
        reduce(&ahead, .videoFrameReady(show: 1, slot: 1, pts: 30, clock.now), expecting: [
            .stopVideo(poster: true),
            .emit(.error(message: "video /cache/clip stopped: the media process handed over a frame due 30 s ahead; its picture stays on the screen")),
            .replaceWarmMedia,
        ])
    }

    @Test func limitsAndPlacement() {
        #expect(VideoLimits.problem(facts) == nil)
        var big = facts
        big.width = 4096
        big.height = 2160
        #expect(VideoLimits.problem(big)?.contains("3840x2160") == true)
        var portrait = facts
        portrait.width = 2160
        portrait.height = 3840
        #expect(VideoLimits.problem(portrait) == nil)
        var fast = facts
        fast.fps = 120
        #expect(VideoLimits.problem(fast)?.contains("60 are played") == true)
        var long = facts
        long.duration = 61
        #expect(VideoLimits.problem(long)?.contains("up to 60 s") == true)
        var broken = facts
        broken.framesDecoded = 0
        #expect(VideoLimits.problem(broken) == "its first frames do not decode")
        // Decided on the case, said in the words.
        #expect(VideoLimits.refusal(broken) == .firstFramesDoNotDecode && VideoLimits.refusal(facts) == nil)
        #expect(VideoLimits.refusal(big) == .tooLarge(width: 4096, height: 2160) && VideoLimits.refusal(fast) == .tooFast(fps: 120))
        var mkv = facts
        mkv.container = "avi"
        #expect(VideoLimits.problem(mkv)?.contains("container") == true)
        // A 4:3 clip fitted on 16:9 is scaled to the height; filled, to the width and cropped.
        let fit = VideoPlacement(clip: Size(width: 640, height: 480), on: Size(width: 1280, height: 720), mode: .fit)
        #expect(fit.frame == Size(width: 960, height: 720) && fit.destination == Rect(x: 160, y: 0, width: 960, height: 720))
        let fill = VideoPlacement(clip: Size(width: 640, height: 480), on: Size(width: 1280, height: 720), mode: .fill)
        #expect(fill.frame == Size(width: 1280, height: 960) && fill.source == Rect(x: 0, y: 120, width: 1280, height: 720))
    }

    @Test func aClipIsToldByItsFirstBytesAndAnythingElseSaysWhatItLooksLike() {
        #expect(VideoHeader.problem([0, 0, 0, 0x20] + Array("ftypisom".utf8)) == nil)
        #expect(VideoHeader.problem([0x1A, 0x45, 0xDF, 0xA3, 1]) == nil)
        #expect(VideoHeader.problem(Array("<!doctype html><html>".utf8))?.contains("an HTML page") == true)
        #expect(VideoHeader.problem(Array("ID3\u{4}".utf8))?.contains("sound") == true)
        #expect(VideoHeader.problem([0xFF, 0xD8, 0xFF, 0xE0])?.contains("a picture goes in picUrl") == true)
        #expect(VideoHeader.problem([])?.contains("empty") == true)
        // And a clip given as a picture says where it belongs.
        #expect(ImageHeader.refusal(for: [0, 0, 0, 0x20] + Array("ftypmp42".utf8)).localizedDescription.contains("videoUrl"))
    }

    @Test func mediaMessagesAreHeldToWhatTheOtherSideCouldMean() {
        #expect(MediaMessage.parse("frame 3 1.500000") == .frame(slot: 3, pts: 1.5))
        #expect(MediaMessage.parse("frame 8 1") == nil)
        #expect(MediaMessage.parse("frame 1 -1") == nil)
        #expect(MediaMessage.parse("frame 1 nan") == nil)
        #expect(MediaMessage.parse("ready 1280 720 5120 4 bgra") == .ready(width: 1280, height: 720, stride: 5120, slots: 4))
        #expect(MediaMessage.parse("ready 1280 720 100 4 bgra") == nil)
        #expect(MediaMessage.parse("ready 99999 720 5120 4 bgra") == nil)
        #expect(MediaMessage.parse("ready 1280 720 5120 4") == nil)
        // Planar frames: a stride of at least the width, even sizes only.
        #expect(MediaMessage.parse("ready 1280 720 1280 3 i420") == .ready(width: 1280, height: 720, stride: 1280, slots: 3, layout: .i420))
        #expect(MediaMessage.parse("ready 1280 720 1000 3 i420") == nil)
        #expect(MediaMessage.parse("ready 1281 720 1282 3 i420") == nil)
        #expect(MediaMessage.parse("ready 1280 720 1280 3 rgb") == nil)
        #expect(FrameLayout.i420.slotBytes(stride: 1280, height: 720) == 1280 * 720 * 3 / 2)
        #expect(MediaMessage.parse("play 1280 720 4") == .play(width: 1280, height: 720, slots: 4))
        #expect(MediaMessage.parse("play 1280 720 4 i420") == .play(width: 1280, height: 720, slots: 4, planar: true))
        #expect(MediaMessage.parse("play 1280 720 4 bgra") == nil)
        #expect(MediaMessage.parse(String(repeating: "x", count: 600)) == nil)
        for message in [MediaMessage.frame(slot: 2, pts: 0.25), .free(slot: 1), .failed("no"), .play(width: 2, height: 2, slots: 1),
                        .play(width: 2, height: 2, slots: 1, planar: true),
                        .ready(width: 4, height: 2, stride: 4, slots: 3, layout: .i420)] {
            #expect(MediaMessage.parse(String(message.line.dropLast())) == message)
        }
    }

    /// A clip refused for its size says so in words and carries the limit as a number: a
    /// higher limit lifts it, the same or a lower one does not, and no other refusal is lifted.
    @Test func aSizeRefusalIsLiftedOnlyByAHigherLimit() {
        let big = ClipRefusal.tooLarge(limitMB: 64)
        #expect(big.message == "the clip is larger than video-max-mb (64 MiB): raise video-max-mb, or make the clip smaller")
        #expect("\(big)" == big.message && big.refusedLimitMB == 64)
        #expect(big.isLifted(byLimitMB: 100) && !big.isLifted(byLimitMB: 64) && !big.isLifted(byLimitMB: 10))
        let long = ClipRefusal.unplayable("it lasts 61.0 s; a clip may last 60 s")
        #expect(long.refusedLimitMB == nil && !long.isLifted(byLimitMB: 1000) && long.message.hasPrefix("it lasts"))
    }
}
