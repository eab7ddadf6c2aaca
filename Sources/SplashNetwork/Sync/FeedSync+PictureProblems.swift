import FoundationEssentials
import SplashPictures
import SplashServices
import SplashCore
import SplashStorage

/// The report's lines for pictures a sync could not cache.
extension FeedSync {
    /// The pictures a sync could not cache, one line each, except those that wait for room
    /// in the cache: one line says how many (a feed of 30,000 pictures would otherwise
    /// write 30,000 lines to the log at every sync).
    struct PictureProblems {
        var each: [String] = []
        var waitingForRoom: [Campaign.ID] = []
        /// Pictures that were cached with something to say (an animated GIF shown still):
        /// warnings, not errors.
        var notes: [String] = []

        mutating func add(_ status: PictureOutcome, campaign id: Campaign.ID) {
            if case .cached = status.status {
                if let note = status.problem { notes.append("campaign \"\(id)\": \(note)") }
            } else if case .waiting(ImageCache.fullReason) = status.status {
                waitingForRoom.append(id)
            } else if let problem = status.problem {
                each.append("campaign \"\(id)\": \(problem)")
            }
        }

        var lines: [String] {
            guard let first = waitingForRoom.first else { return each }
            if waitingForRoom.count == 1 { return each + ["campaign \"\(first)\": picture not cached yet: \(ImageCache.fullMessage)"] }
            let named = waitingForRoom.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
            return each + ["\(waitingForRoom.count) campaigns (\(named)\(waitingForRoom.count > 3 ? ", …" : "")): "
                + "pictures not cached yet: \(ImageCache.fullMessage)"]
        }
    }
}
