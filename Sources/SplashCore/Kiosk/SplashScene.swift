/// The splash: an image and the 跳过 N countdown.
public struct SplashScene: Equatable, Sendable {
    /// nil when the bundled default image is shown.
    public var campaignID: Campaign.ID?
    /// The image file shown.
    public var imagePath: String
    /// The point of the picture a crop keeps in view (the campaign's `focus`).
    public var focus: FocusPoint = .centre
    /// The picture's size in pixels, once the display has opened it (`showRecorded`): the
    /// pill is placed clear of its edges. Nil before, and for the default picture.
    public var pictureSize: Size?
    /// The number on the pill.
    public var countdown: Int
    /// When the number next goes down.
    public var nextTickAt: Seconds
    /// A picture, or a clip played under the pill (`imagePath` its poster).
    public var media: MediaKind = .picture
    /// When its show started, for the ledger and the catalog once the show is recorded
    /// (nil for the default picture, which is not a show).
    public var startedAt: Instant?
    /// Its show is in the ledger and counted (`showRecorded`); until then it is only asked for.
    public var counted = false
}
