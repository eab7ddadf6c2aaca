import Foundation
import Testing
@testable import SplashCore

/// When the screen is on: hours, days, off dates, overnight windows, DST nights, and a
/// clock not trusted yet — on the manual clock, in a real time zone.
@Suite struct ScreenScheduleTests {
    let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return c
    }()
    /// The same zone as the core reads it.
    let zone = Zone(identifier: "Europe/Berlin")!

    func at(_ text: String) -> Date {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = calendar.timeZone
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.date(from: text)!
    }

    func schedule(_ hours: String? = nil, days: String? = nil, off: String? = nil) throws -> ScreenSchedule {
        try ScreenSchedule(hoursText: hours, daysText: days, offDatesText: off)
    }

    @Test func onInItsHoursAndOffOutsideThem() throws {
        let s = try schedule("07:30-22:00")
        #expect(s.isOn(at: at("2026-12-01 08:00"), zone: zone))
        #expect(!s.isOn(at: at("2026-12-01 22:00"), zone: zone))
        #expect(!s.isOn(at: at("2026-12-01 07:29"), zone: zone))
        #expect(s.nextChange(after: at("2026-12-01 23:00"), zone: zone) == at("2026-12-02 07:30"))
        #expect(s.nextChange(after: at("2026-12-01 08:00"), zone: zone) == at("2026-12-01 22:00"))
        let two = try schedule("07:00-12:00, 13:00-22:00")
        #expect(!two.isOn(at: at("2026-12-01 12:30"), zone: zone))
        #expect(two.nextChange(after: at("2026-12-01 12:30"), zone: zone) == at("2026-12-01 13:00"))
    }

    @Test func anOvernightWindowBelongsToTheDayItBeganOn() throws {
        // Fridays from 22:00 to 02:00: Saturday's small hours are Friday's; Friday's are Thursday's.
        let s = try schedule("22:00-02:00", days: "fri")
        #expect(s.isOn(at: at("2026-12-04 23:00"), zone: zone))   // Friday
        #expect(s.isOn(at: at("2026-12-05 01:00"), zone: zone))   // Saturday, Friday's night
        #expect(!s.isOn(at: at("2026-12-04 01:00"), zone: zone))  // Friday, Thursday's night
        #expect(!s.isOn(at: at("2026-12-05 23:00"), zone: zone))  // Saturday
        #expect(s.nextChange(after: at("2026-12-05 01:00"), zone: zone) == at("2026-12-05 02:00"))
        #expect(s.nextChange(after: at("2026-12-05 03:00"), zone: zone) == at("2026-12-11 22:00"))
    }

    @Test func anOffDateKeepsItsWholeDayDarkNightIncluded() throws {
        let s = try schedule("22:00-02:00", off: "2026-12-25")
        #expect(s.isOn(at: at("2026-12-25 01:00"), zone: zone))   // the 24th's night
        #expect(!s.isOn(at: at("2026-12-25 23:00"), zone: zone))
        #expect(!s.isOn(at: at("2026-12-26 01:00"), zone: zone))  // the 25th's night
        #expect(s.nextChange(after: at("2026-12-25 03:00"), zone: zone) == at("2026-12-26 22:00"))
        // All day, off on a date.
        let days = try schedule(off: "2026-12-25, 2027-01-01")
        #expect(!days.isOn(at: at("2026-12-25 12:00"), zone: zone))
        #expect(days.nextChange(after: at("2026-12-24 12:00"), zone: zone) == at("2026-12-25 00:00"))
        #expect(days.nextChange(after: at("2026-12-25 12:00"), zone: zone) == at("2026-12-26 00:00"))
    }

    @Test func aStartTheClockSkipsIsTheFirstMomentAfterIt() throws {
        // 2027-03-28 in Berlin: 02:00 goes straight to 03:00.
        let s = try schedule("02:30-23:00")
        let next = try #require(s.nextChange(after: at("2027-03-28 01:00"), zone: zone))
        #expect(next == at("2027-03-28 03:00"))
        #expect(s.isOn(at: next, zone: zone))
        // The autumn night (2026-10-25, 02:00–03:00 twice) ends the window once, at its first 23:00.
        #expect(s.nextChange(after: at("2026-10-25 12:00"), zone: zone) == at("2026-10-25 23:00"))
    }

    @Test func aClockNotTrustedYetKeepsTheScreenOn() throws {
        let s = try schedule("07:30-22:00")
        #expect(s.isOn(at: at("2026-12-01 23:00"), zone: zone, clockTrusted: false))
        #expect(s.nextChange(after: at("2026-12-01 23:00"), zone: zone, clockTrusted: false) == nil)
        #expect(ScreenSchedule().isOn(at: at("2026-12-01 23:00"), zone: zone))
        #expect(ScreenSchedule().nextChange(after: at("2026-12-01 23:00"), zone: zone) == nil)
    }

    @Test func aScheduleThatCannotBeReadSaysWhichPart() {
        #expect(throws: ScreenScheduleError.badHours("7:00-22:00")) { try schedule("07:00-12:00, 7:00-22:00") }
        #expect(throws: ScreenScheduleError.badDay("monday")) { try schedule(days: "monday") }
        #expect(throws: ScreenScheduleError.badDate("2026-02-29")) { try schedule(off: "2026-02-29") }
        #expect((try? schedule(off: "2028-02-29")) != nil)
        #expect(ScreenScheduleError.badHours("x").localizedDescription.contains("HH:MM-HH:MM"))
    }
}
