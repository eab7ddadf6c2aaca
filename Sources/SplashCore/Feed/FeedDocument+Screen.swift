import FoundationEssentials

/// The feed's `screen` object: the fleet's screen schedule. Each field may be a list
/// (`["07:30-12:00", "13:00-22:00"]`, as a campaign's `hours`) or one comma-separated
/// string (as the config file's `screen-hours`); a field that cannot be read is left out
/// with a warning naming it (`screen.hours`), the others still apply.
extension FeedDocument {
    /// The most items a `screen` field may list.
    public static let maxScreenItems = 400

    /// A device group's own screen schedule.
    public struct GroupScreen: Equatable, Sendable {
        public var group: String
        public var screen: FeedScreen
    }

    /// The feed's `groups` object: each device group's own screen schedule, by its name. A
    /// group whose name or schedule cannot be read is left out with a warning.
    static func decodeGroups(_ raw: Any, warnings: inout [String]) -> [GroupScreen] {
        guard let object = raw as? [String: Any] else {
            warnings.append("groups: must be an object like {\"lobby\": {\"screen\": {\"hours\": [\"07:30-22:00\"]}}}, got "
                            + "\(describe(raw)); ignored")
            return []
        }
        var found: [GroupScreen] = []
        for name in object.keys.sorted() {
            guard DeviceIdentity.isValid(name) else {
                warnings.append("groups: \(quoted(name)) is not a group name (1 to 64 letters, digits, '.', '_', '-' or ':'); ignored")
                continue
            }
            guard let group = object[name] as? [String: Any], let rawScreen = group["screen"], !(rawScreen is JSONNull) else {
                warnings.append("groups.\(name): must be an object with a \"screen\" schedule, got \(describe(object[name]!)); ignored")
                continue
            }
            var notes: [String] = []
            if let screen = decodeScreen(rawScreen, warnings: &notes) { found.append(GroupScreen(group: name, screen: screen)) }
            warnings += notes.map { "groups.\(name).\($0)" }
        }
        return found
    }

    /// The screen schedule a device in `device` follows: the first of its groups (in
    /// `device-groups` order, then its id) with one of its own, else the feed's `screen`. A
    /// device in two groups with different schedules: a warning says which one applies.
    public func screen(for device: DeviceGroups?) -> (screen: FeedScreen?, warning: String?) {
        guard let device else { return (screen, nil) }
        let mine = device.memberships.compactMap { name in groupScreens.first { $0.group == name } }
        guard let first = mine.first else { return (screen, nil) }
        let differing = mine.dropFirst().filter { $0.screen != first.screen }.map(\.group)
        let warning = differing.isEmpty ? nil
            : "groups: this screen is in \(([first.group] + differing).joined(separator: ", ")), whose screen schedules differ; "
                + "\(first.group)'s applies (the first of them in device-groups)"
        var chosen = first.screen
        chosen.group = first.group
        return (chosen, warning)
    }

    static func decodeScreen(_ raw: Any, warnings: inout [String]) -> FeedScreen? {
        guard let object = raw as? [String: Any] else {
            warnings.append("screen: must be an object like {\"hours\": [\"07:30-22:00\"]}, got \(describe(raw)); ignored")
            return nil
        }
        warnings += Misspellings(FeedScreen.fields).notes(object).map { "screen.\($0.0): \($0.1)" }
        // The config file's names (screen-hours, …) written here: what they are called in a feed.
        for key in object.keys.sorted() where key.hasPrefix("screen-") && !FeedScreen.fields.contains(key) {
            let field = ["screen-hours": "hours", "screen-days": "days", "screen-off-dates": "offDates"][key]
            warnings.append("screen.\(key): unknown field" + (field.map { "; in a feed it is \"\($0)\" (\(key) is the config file's name)" } ?? "")
                            + "; ignored")
        }
        /// The field as one comma-separated text, once `check` reads it without an error.
        func field(_ name: String, _ check: (String?) throws -> Void, meaning: String) -> String? {
            guard let value = object[name], !(value is JSONNull) else { return nil }
            let items: [String]?
            if let text = value as? String {
                items = text.split(separator: ",").map { $0.trimmedSpaces }
            } else if let list = value as? [Any], list.allSatisfy({ $0 is String }) {
                items = list.compactMap { ($0 as? String)?.trimmedSpaces }
            } else {
                items = nil
            }
            guard let items, items.count <= maxScreenItems else {
                warnings.append("screen.\(name): must be a list of \(meaning) or one string of them separated by commas, got "
                                + "\(describe(value)); ignored")
                return nil
            }
            let text = items.filter { !$0.isEmpty }.joined(separator: ", ")
            do {
                try check(text)
            } catch {
                warnings.append("screen.\(name): \(error.explained); ignored")
                return nil
            }
            return text.isEmpty ? nil : text
        }
        var screen = FeedScreen()
        screen.hours = field("hours", { _ = try ScreenSchedule(hoursText: $0, daysText: nil, offDatesText: nil) },
                             meaning: "daily windows like \"07:30-22:00\"")
        screen.days = field("days", { _ = try ScreenSchedule(hoursText: nil, daysText: $0, offDatesText: nil) },
                            meaning: "days like \"mon\"")
        screen.offDates = field("offDates", { _ = try ScreenSchedule(hoursText: nil, daysText: nil, offDatesText: $0) },
                                meaning: "dates like \"2026-12-25\"")
        if let raw = object["timezone"], !(raw is JSONNull) {
            let read = FeedZone.read(raw, field: "screen.timezone", otherwise: "the feed's timezone is used where it has a valid one, else the device's")
            screen.timezone = read.zone
            if let warning = read.warning { warnings.append(warning) }
        }
        return screen
    }
}
