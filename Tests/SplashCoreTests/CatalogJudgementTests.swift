import Foundation
import Testing
@testable import SplashCore

/// The catalog as the kiosk judges what storage keeps: one state for a picture, a clip held
/// to the limits again, an animated GIF played or shown still.
@Suite struct CatalogJudgementTests {
    let clip = VideoFacts(container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "h264", width: 1920, height: 1080, fps: 30,
                          duration: 2.4, framesDecoded: 3, decoder: "h264")
    let gif = VideoFacts(container: "gif", codec: "gif", width: 320, height: 240, fps: 10, duration: 1, framesDecoded: 10,
                         decoder: "gif", frames: 10)

    func judged(_ campaign: Campaign, picture: String? = "/c/p", refused: String? = nil, waiting: String? = nil,
                clipAt: String? = nil, facts: VideoFacts? = nil, clipRefused: String? = nil, clipWaiting: String? = nil,
                motion: VideoFacts? = nil) -> CatalogEntry {
        CatalogEntry.judged(campaign: campaign, shows: 0, lastShownAt: nil, recentShows: [], cachedPicture: picture,
                            pictureRefused: refused, pictureWaiting: waiting, cachedClip: clipAt, clipFacts: facts,
                            clipRefused: clipRefused, clipWaiting: clipWaiting, motion: motion)
    }

    @Test func aPictureIsCachedWaitingOrRefusedAndARefusalWinsOverItsFile() {
        let still = entry("a").campaign
        #expect(judged(still).picture == .cached(path: "/c/p"))
        #expect(judged(still, picture: nil).picture == .waiting(CatalogEntry.notCached))
        #expect(judged(still, picture: nil, waiting: "cache full").picture == .waiting("cache full"))
        #expect(judged(still, refused: "not a JPEG").picture == .refused("not a JPEG", path: "/c/p"))
        #expect(judged(still, picture: nil, refused: "not a JPEG").picture == .refused("not a JPEG", path: nil))
        #expect(!judged(still, refused: "not a JPEG").isEligible(at: Date(timeIntervalSince1970: 1_790_000_000),
                                                                 context: RuleContext(clockTrusted: true, deviceTimeZone: .gmt)))
    }

    @Test func aClipPlaysOnlyCachedAndWithinTheLimitsAndSaysWhyNot() {
        var campaign = entry("v").campaign
        campaign.videoURL = URL(string: "https://example.test/v.mp4")
        let plays = judged(campaign, clipAt: "/c/v", facts: clip)
        #expect(plays.video == VideoClip(path: "/c/v", facts: clip) && plays.clipProblem == nil)
        #expect(judged(campaign, facts: clip).clipProblem == .notCached("not fetched yet"))
        #expect(judged(campaign, clipWaiting: "tried again next sync").clipProblem == .notCached("tried again next sync"))
        var huge = clip
        huge.width = 7680
        huge.height = 4320
        let refused = judged(campaign, clipAt: "/c/v", facts: huge)
        #expect(refused.video == nil)
        #expect(refused.clipProblem == .refused("it is 7680x4320; clips up to 3840x2160 are played"))
        // A campaign without a clip has nothing to say of one.
        #expect(judged(entry("p").campaign, facts: clip).clipProblem == nil)
    }

    @Test func anAnimatedGIFPlaysUnlessTheCampaignsClipDoesOrItIsTooLarge() {
        let animated = judged(entry("g").campaign, motion: gif)
        #expect(animated.video == VideoClip(path: "/c/p", facts: gif) && animated.stillBecause == nil)
        var campaign = entry("v").campaign
        campaign.videoURL = URL(string: "https://example.test/v.mp4")
        #expect(judged(campaign, clipAt: "/c/v", facts: clip, motion: gif).video?.path == "/c/v")
        var huge = gif
        huge.width = 5000
        let still = judged(entry("g").campaign, motion: huge)
        #expect(still.video == nil && still.stillBecause?.contains("5000x240") == true)
        // Not cached: nothing plays.
        #expect(judged(entry("g").campaign, picture: nil, motion: gif).video == nil)
    }
}
