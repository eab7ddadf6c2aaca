/// The groups a device is in (`device-groups`), which campaigns and screen schedules in one
/// feed may target: the names it was given, and always its own id, so a campaign can name one
/// screen. A campaign without `groups` is for every device.
public struct DeviceGroups: Equatable, Sendable {
    /// The names from `device-groups`, in the order given.
    public var names: [String]
    /// The device's own id, an implicit group of its own; nil when it has none.
    public var deviceID: String?

    /// A device in `names`, with the id `deviceID`.
    public init(names: [String], deviceID: String?) {
        self.names = names
        self.deviceID = deviceID
    }

    /// Every group the device is in: its names, then its id.
    public var memberships: [String] {
        names + (deviceID.map { names.contains($0) ? [] : [$0] } ?? [])
    }

    /// The name that puts a device in every group (`preview` and `feed check` without
    /// `--device-groups`: every campaign, whoever it is for).
    public static let everyGroup = "*"

    /// Whether it is in every group (`device-groups = *`).
    public var isEverywhere: Bool { names.contains(Self.everyGroup) }

    /// The memberships as one text, as the feed's state keeps them (the groups a feed was
    /// applied for).
    public var stored: String { memberships.joined(separator: ",") }

    /// Whether a campaign for `groups` (nil: every device) is for this device.
    public func includes(_ groups: [String]?) -> Bool {
        guard let groups, !isEverywhere else { return true }
        let mine = Set(memberships)
        return groups.contains { mine.contains($0) }
    }

    /// A warning for each of the device's group names (`device-groups`; not its id, not `*`)
    /// that no campaign and no group schedule of the feed names — most often a typo — with the
    /// nearest name the feed does use: "device-groups: lobyy: no campaign and no schedule of
    /// the feed names this group; did you mean lobby?".
    public func unmatched(campaignGroups: [[String]?], scheduleGroups: [String]) -> [String] {
        guard !isEverywhere else { return [] }
        let named: [String] = Array(Set(campaignGroups.compactMap { $0 }.flatMap { $0 } + scheduleGroups)).sorted()
        return names.filter { !named.contains($0) }.map { name in
            let hint: String = NearestName.hint(for: name, among: named)
            let none: String = hint.isEmpty ? " (it shows the campaigns for every screen alone)" : ""
            return "device-groups: \(name): no campaign and no schedule of the feed names this group\(hint)\(none)"
        }
    }

    /// The words for a campaign's `groups` that differ from one of this device's groups only
    /// in case ("Lobby" and "lobby"): names are matched exactly, so it is not shown here.
    public static func caseHint(_ groups: [String], device: [String]) -> String? {
        for group in groups {
            if let mine = device.first(where: { $0 != group && $0.lowercased() == group.lowercased() }) {
                return "; group names are matched exactly, case included: \"\(group)\" is not \"\(mine)\""
            }
        }
        return nil
    }

    /// `device-groups` as written: names separated by commas, each 1 to 64 letters, digits,
    /// '.', '_', '-' or ':' (as a device id); spaces around them are ignored, and an empty
    /// text is no group. The names, or the first one that is not a name.
    public static func parse(_ text: String) -> Result<[String], NameError> {
        var names: [String] = []
        guard text.contains(where: { !$0.isWhitespace }) else { return .success([]) }
        if text.filter({ !$0.isWhitespace }) == everyGroup { return .success([everyGroup]) }
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(String(part.drop(while: \.isWhitespace).reversed()).drop(while: \.isWhitespace).reversed())
            guard DeviceIdentity.isValid(name) else { return .failure(NameError(name: name)) }
            if !names.contains(name) { names.append(name) }
        }
        return .success(names)
    }

    /// A text that is not a group's name.
    public struct NameError: Error, Equatable {
        public var name: String
    }
}
