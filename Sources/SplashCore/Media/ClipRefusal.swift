/// Why a campaign's clip is not played here (its picture is shown instead), as a sync, a
/// check and the store keep it: decisions read the case, people read `message`.
public enum ClipRefusal: Equatable, Sendable, CustomStringConvertible {
    /// Larger than `video-max-mb` was (`limitMB`): a higher limit tries it again.
    case tooLarge(limitMB: Int)
    /// Anything else that will not play here (its length, size, codec, a page for a clip…).
    case unplayable(String)

    /// The refusal said for an operator.
    public var message: String {
        switch self {
        case .tooLarge(let limit): return "the clip is larger than video-max-mb (\(limit) MiB): raise video-max-mb, or make the clip smaller"
        case .unplayable(let why): return why
        }
    }

    public var description: String { message }

    /// The `video-max-mb` a size refusal was for; nil for any other.
    public var refusedLimitMB: Int? {
        if case .tooLarge(let limit) = self { return limit }
        return nil
    }

    /// Whether a sync with `limitMB` tries the clip again: one refused for its size, once
    /// the limit is raised above what refused it.
    public func isLifted(byLimitMB limitMB: Int) -> Bool {
        Self.limitLifted(from: refusedLimitMB, byLimitMB: limitMB)
    }

    /// Whether a clip refused for its size at `refused` MiB (as stored; nil for none) is
    /// tried again with `limitMB`.
    public static func limitLifted(from refused: Int?, byLimitMB limitMB: Int) -> Bool {
        refused.map { $0 < limitMB } ?? false
    }
}
