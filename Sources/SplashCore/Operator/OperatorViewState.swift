/// What the operator view keeps between actions: the page on the screen, the campaign whose
/// page is open and its shows, the press that may become a swipe, the hidden gesture's
/// press in the corner, when it was last used, and what the shell read for it.
public struct OperatorViewState: Equatable, Sendable {
    /// The page of the library on the screen (from 0).
    public var page = 0
    /// The campaign whose page is open.
    public var campaign: Campaign.ID?
    /// Its last shows, once read.
    public var shows: [ShowRecord]?
    /// Where a finger or button went down in the view (a swipe or a tap on release).
    public var press: Point?
    /// A press in the operator corner that has not come up yet: when it went down.
    public var cornerPressAt: Seconds?
    /// Last input in the view.
    public var idleSince: Seconds = 0
    /// The campaign whose detail follows when the view closes.
    public var returnTo: Campaign.ID?
    /// What the shell read for the view.
    public var info: OperatorInfo?

    /// A view never opened.
    public init() {}
}
