import Foundation
import Testing
@testable import SplashCore

/// The zone files read without ICU agree with Foundation's zones (ICU's own database) on
/// every offset, local time and skipped or repeated hour from 1990 to 2060 — past 2037,
/// where the files' tables end and their rule takes over.
@Suite struct ZoneTests {
    static let names = ["Europe/Berlin", "America/New_York", "Asia/Shanghai", "Australia/Sydney", "Asia/Kolkata",
                        "America/Sao_Paulo", "Pacific/Chatham", "Europe/London", "America/St_Johns", "Asia/Tehran",
                        "Pacific/Apia", "America/Santiago", "UTC", "PRC"]

    @Test(arguments: names) func offsetsAndLocalTimesAgreeWithFoundation(name: String) throws {
        let zone = try #require(Zone(identifier: name))
        let reference = try #require(TimeZone(identifier: name))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = reference
        // Every 61 hours (so every hour of the day comes round), and an hour each side of
        // every change Foundation knows of.
        var instants: [Date] = []
        var t = Date(timeIntervalSince1970: 631_152_000)  // 1990-01-01
        let end = Date(timeIntervalSince1970: 2_871_763_200)  // 2061-01-01
        while t < end {
            instants.append(t)
            t += 61 * 3600
        }
        var change = Date(timeIntervalSince1970: 631_152_000)
        while let next = reference.nextDaylightSavingTimeTransition(after: change), next < end {
            instants += [next - 3600, next - 1, next, next + 1, next + 3600]
            change = next
        }
        var wrong: [String] = []
        for instant in instants {
            let local = zone.local(instant)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: instant)
            let ours = [zone.secondsFromGMT(for: instant), local.year, local.month, local.day, local.hour, local.minute,
                        local.second, local.weekday]
            let theirs = [reference.secondsFromGMT(for: instant), parts.year!, parts.month!, parts.day!, parts.hour!,
                          parts.minute!, parts.second!, parts.weekday!]
            if ours != theirs, wrong.count < 5 { wrong.append("\(instant): \(ours) against \(theirs)") }
        }
        #expect(wrong.isEmpty, "\(name): \(wrong)")
        #expect(instants.count > 400)
    }

    @Test(arguments: names) func aLocalTimeIsTheInstantFoundationGives(name: String) throws {
        let zone = try #require(Zone(identifier: name))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: name))
        var wrong: [String] = []
        // Each day of three years, at every half hour of the night the clocks change on and
        // at midnight: skipped times are the change itself, repeated ones their first time.
        // (Where the change is not on the hour, Chatham's 02:45, Foundation goes on to the
        // next full hour; the change itself is the first moment after the skipped time.)
        let reference = try #require(TimeZone(identifier: name))
        for day in ISO8601.daysFromCivil(year: 2025, month: 1, day: 1)..<ISO8601.daysFromCivil(year: 2028, month: 1, day: 1) {
            let (y, m, d) = ISO8601.civilFromDays(day)
            let midnight = try #require(calendar.date(from: DateComponents(year: y, month: m, day: d)))
            for minute in stride(from: 0, to: 1440, by: 30) {
                let theirs = calendar.date(bySettingHour: minute / 60, minute: minute % 60, second: 0, of: midnight,
                                           matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)
                let ours = zone.date(day: day, minute: minute)
                if ours != theirs, let change = reference.nextDaylightSavingTimeTransition(after: midnight - 86_400),
                   ours == change, zone.local(change).minuteOfDay > minute, zone.local(change - 1).minuteOfDay < minute {
                    continue
                }
                if ours != theirs, wrong.count < 5 { wrong.append("\(y)-\(m)-\(d) +\(minute) min: \(ours) against \(theirs as Any)") }
            }
        }
        #expect(wrong.isEmpty, "\(name): \(wrong)")
    }

    @Test func fixedOffsetsAndUnknownNames() throws {
        #expect(Zone(identifier: "UTC+8")?.secondsFromGMT() == 8 * 3600)
        #expect(Zone(identifier: "GMT-03:30")?.secondsFromGMT() == -(3 * 3600 + 1800))
        #expect(Zone(identifier: "utc+0530")?.secondsFromGMT() == 5 * 3600 + 1800)
        #expect(Zone(identifier: "UTC+8")?.identifier == "GMT+0800")
        #expect(Zone(identifier: "Mars/Olympus") == nil)
        #expect(Zone(identifier: "../../etc/passwd") == nil)
        #expect(Zone(identifier: "") == nil)
        #expect(Zone.knownIdentifiers().contains("Europe/Berlin"))
        #expect(!Zone.knownIdentifiers().contains { $0.hasSuffix(".tab") })
    }

    /// Debian 13 keeps the old names' files in `tzdata-legacy`, which is not installed by default.
    @Test func anOldNameWithoutItsFileIsReadThroughTheLinkList() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Asia"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: Zone.directory + "/Asia/Shanghai", toPath: dir.path + "/Asia/Shanghai")
        try Data("# a comment\nL Asia/Shanghai PRC\nL Asia/Nowhere Gone\n".utf8).write(to: dir.appendingPathComponent("tzdata.zi"))
        let cache = ZoneCache(directory: dir.path)
        let prc = try #require(cache.zone("PRC"))
        #expect(prc.identifier == "PRC")
        #expect(prc.secondsFromGMT(for: Date(timeIntervalSince1970: 1_780_000_000)) == 8 * 3600)
        #expect(cache.zone("Gone") == nil)
        #expect(cache.zone("Japan") == nil)
    }

    @Test func aFileIsHeldToItsFormat() {
        #expect(Zone(identifier: "x", tzif: Data("not a zone file".utf8)) == nil)
        #expect(Zone(identifier: "x", tzif: Data("TZif2".utf8) + Data(count: 30)) == nil)
        var cut = (try? Data(contentsOf: URL(fileURLWithPath: Zone.directory + "/Europe/Berlin"))) ?? Data()
        #expect(Zone(identifier: "x", tzif: cut) != nil)
        cut = cut.prefix(cut.count / 2)
        #expect(Zone(identifier: "x", tzif: cut) == nil)
    }

    @Test func posixRulesReadAsWritten() throws {
        let newYork = try #require(ZoneRule("EST5EDT,M3.2.0,M11.1.0"))
        #expect(newYork.standard == -5 * 3600 && newYork.daylight == -4 * 3600)
        // 2040-07-01 is summer, 2040-01-01 winter.
        #expect(newYork.offset(at: 2_224_713_600) == -4 * 3600)
        #expect(newYork.offset(at: 2_208_988_800) == -5 * 3600)
        let sydney = try #require(ZoneRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        #expect(sydney.offset(at: 2_208_988_800) == 11 * 3600)
        #expect(sydney.offset(at: 2_224_713_600) == 10 * 3600)
        let nepal = try #require(ZoneRule("<+0545>-5:45"))
        #expect(nepal.standard == Int32(5 * 3600 + 45 * 60) && nepal.daylight == nil)
        #expect(ZoneRule("") == nil && ZoneRule("EST5EDT,M13.1.0,M11.1.0") == nil && ZoneRule("X5") == nil)
    }
}
