import FoundationEssentials

/// The operator view: the campaign library and why the screen shows what it shows.
public struct OperatorScene: Equatable, Sendable {
    /// The cards of the page on the screen, in the view's order (`OperatorOrder`).
    public var tiles: [OperatorTile]
    /// What the shell read for the view; nil until it has been read.
    public var info: OperatorInfo?
    /// When the next sync starts (nil while one runs).
    public var nextSync: Date?
    /// A feed sync is running.
    public var syncRunning: Bool
    /// Where the poem on the poetry panel comes from.
    public var poetrySource: PoetrySource
    /// The title of the poem on the poetry panel.
    public var poetryOrigin: String
    /// When the poetry panel changes next (a new entry, or the provider asked again).
    public var nextPoetry: Date?
    /// The wall-clock time the view was made, for ages ("3 min ago").
    public var now: Date
    /// The page of the library on the screen (from 0), and how many there are.
    public var page: Int = 0
    /// How many pages the library takes, at least one.
    public var pageCount: Int = 1
    /// A campaign's own page, when a card was tapped.
    public var campaignPage: OperatorCampaignPage? = nil
    /// The screen's power as `status` says it ("screen on (schedule) until 22:00").
    public var screenPower = ""
}
