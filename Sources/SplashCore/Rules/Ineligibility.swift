/// Why a campaign cannot be shown now: the rules decide on this, and the words an operator
/// reads (`message`) are made from it, so rewording a message changes no decision.
public enum Ineligibility: Equatable, Sendable {
    /// Bound to dates or times, and the clock is not trusted yet.
    case waitingForClock
    case notStarted
    case ended
    /// Its `endAt` is not after its `startAt`: there is no moment it may be shown.
    case emptyWindow
    /// Its show count is spent.
    case usedUp
    /// Its picture was refused (why).
    case imageRefused(String)
    /// Its picture is not cached yet (why, when known).
    case imageMissing(String?)
    case notToday
    case outsideHours
    case dailyCapReached
    /// Its `minInterval` has not passed since its last show.
    case tooSoon
    /// Its `groups` do not include this device: the groups it is for, and the device's.
    case notForThisDevice(groups: [String], device: [String])

    /// The words for it, as the operator view, `campaigns` and `status` show them.
    public var message: String {
        switch self {
        case .waitingForClock: return "waiting for the clock"
        case .notStarted: return "not started"
        case .ended: return "ended"
        case .emptyWindow: return "never: its endAt is not after its startAt"
        case .usedUp: return "used up"
        case .imageRefused(let why): return "image refused: \(why)"
        case .imageMissing(let why): return why.map { "image missing: \($0)" } ?? "image missing"
        case .notToday: return "not today"
        case .outsideHours: return "outside its hours"
        case .dailyCapReached: return "daily cap reached"
        case .tooSoon: return "too soon"
        case let .notForThisDevice(groups, device):
            let them: String = groups.isEmpty ? "for no screen" : "for the groups \(groups.joined(separator: ", "))"
            let mine: String = device.isEmpty ? "no group" : device.joined(separator: ", ")
            let hint: String = DeviceGroups.caseHint(groups, device: device) ?? ""
            return "\(them); this screen is in: \(mine)\(hint)"
        }
    }

    /// It will not pass by itself: the campaign is over (ended, used up).
    public var isFinished: Bool { self == .ended || self == .usedUp || self == .emptyWindow }

    /// It is for other screens: nothing this device does will make it shown.
    public var isElsewhere: Bool {
        if case .notForThisDevice = self { return true }
        return false
    }

    /// Its picture is the problem.
    public var isPictureProblem: Bool {
        switch self {
        case .imageRefused, .imageMissing: return true
        default: return false
        }
    }
}
