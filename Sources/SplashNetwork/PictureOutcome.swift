import SplashServices
import SplashStorage

/// What a sync did with one picture: the status noted for the campaigns that show it, and
/// the line the sync's report gives it (nil: nothing to say).
struct PictureOutcome {
    var status: CampaignStore.ImageStatus
    var problem: String?

    init(_ status: CampaignStore.ImageStatus, _ problem: String?) {
        self.status = status
        self.problem = problem
    }
}
