import Foundation

/// Where shows are recorded. `recordShow` must be durable when it returns: the frame
/// that shows the campaign is presented only after it.
public protocol ShowLedger: AnyObject {
    func recordShow(campaignID: String, at date: Date) throws
    func endShow(campaignID: String, outcome: ShowOutcome, at date: Date) throws
}
