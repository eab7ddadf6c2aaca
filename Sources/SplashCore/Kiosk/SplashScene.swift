/// The splash: an image and the 跳过 N countdown.
public struct SplashScene: Equatable, Sendable {
    /// nil when the bundled default image is shown.
    public var campaignID: String?
    /// The image file shown.
    public var imagePath: String
    /// The number on the pill.
    public var countdown: Int
    /// When the number next goes down.
    public var nextTickAt: Seconds
    /// A picture, or a clip played under the pill (`imagePath` its poster).
    public var media: MediaKind = .picture
}
