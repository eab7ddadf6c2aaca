import SplashServices
import SplashStorage

/// What a sync did with one picture: the status noted for the campaigns that show it, and
/// the line the sync's report gives it (nil: nothing to say).
struct PictureOutcome {
    var status: CampaignStore.ImageStatus
    var problem: String?
    /// A cached picture asked for again was answered "not modified": the file stays.
    var unchanged = false

    init(_ status: CampaignStore.ImageStatus, _ problem: String?, unchanged: Bool = false) {
        self.status = status
        self.problem = problem
        self.unchanged = unchanged
    }
}
