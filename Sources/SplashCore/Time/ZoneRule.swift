/// The rule a zone file gives for the years past its table, in POSIX's TZ form:
/// `CST-8` (always eight hours east), `EST5EDT,M3.2.0,M11.1.0` (daylight saving from the
/// second Sunday of March to the first of November, at 02:00 local).
struct ZoneRule: Sendable, Hashable {
    /// Seconds east of UTC in standard time.
    let standard: Int32
    /// Seconds east of UTC in daylight saving time, and when it starts and ends (nil: none).
    let daylight: Int32?
    let start: Change?
    let end: Change?

    /// A day of the year and a local time on it.
    struct Change: Sendable, Hashable {
        enum Day: Sendable, Hashable {
            /// `Mm.w.d`: weekday d (0 Sunday) of week w (5: the last) of month m.
            case monthWeek(month: Int, week: Int, weekday: Int)
            /// `Jn`: day n of 1–365, February 29 never counted.
            case julian(Int)
            /// `n`: day n of 0–365, February 29 counted.
            case zeroBased(Int)
        }
        let day: Day
        /// Seconds after local midnight (may be negative or past 24 h).
        let time: Int

        /// Days since 1970 of this change's day in `year`.
        func dayNumber(in year: Int) -> Int {
            switch day {
            case let .monthWeek(month, week, weekday):
                let first = ISO8601.daysFromCivil(year: year, month: month, day: 1)
                let firstWeekday = ((first % 7) + 7 + 4) % 7  // 0 Sunday
                var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                let length = ISO8601.daysIn(month: month, year: year)
                while day >= first + length { day -= 7 }
                return day
            case let .julian(n):
                let jan1 = ISO8601.daysFromCivil(year: year, month: 1, day: 1)
                let leap = ISO8601.daysIn(month: 2, year: year) == 29
                return jan1 + n - 1 + (leap && n >= 60 ? 1 : 0)
            case let .zeroBased(n):
                return ISO8601.daysFromCivil(year: year, month: 1, day: 1) + n
            }
        }
    }

    /// The offset at `t` (seconds since 1970, UTC).
    func offset(at t: Int64) -> Int32 {
        guard let daylight, let start, let end else { return standard }
        let days = Int((Double(t + Int64(standard)) / 86_400).rounded(.down))
        let year = ISO8601.civilFromDays(days).0
        // Starts are written in standard time, ends in daylight saving time.
        let on = Int64(start.dayNumber(in: year)) * 86_400 + Int64(start.time) - Int64(standard)
        let off = Int64(end.dayNumber(in: year)) * 86_400 + Int64(end.time) - Int64(daylight)
        let inside = on < off ? (t >= on && t < off) : !(t >= off && t < on)
        return inside ? daylight : standard
    }

    /// The rule `text` writes, or nil when it is not one.
    init?(_ text: String) {
        var s = Substring(text)
        func name() -> Bool {
            if s.first == "<" {
                guard let close = s.firstIndex(of: ">") else { return false }
                s = s[s.index(after: close)...]
                return true
            }
            let letters = s.prefix { $0.isLetter }
            guard letters.count >= 3 else { return false }
            s = s.dropFirst(letters.count)
            return true
        }
        /// `[+-]hh[:mm[:ss]]` as seconds.
        func time() -> Int? {
            var sign = 1
            if s.first == "+" || s.first == "-" {
                sign = s.first == "-" ? -1 : 1
                s = s.dropFirst()
            }
            var parts: [Int] = []
            while parts.count < 3 {
                let digits = s.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, let n = Int(digits) else { return nil }
                parts.append(n)
                s = s.dropFirst(digits.count)
                guard s.first == ":" else { break }
                s = s.dropFirst()
            }
            guard !parts.isEmpty else { return nil }
            let seconds = parts[0] * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
            return sign * seconds
        }
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return nil }
            s = s.dropFirst(digits.count)
            return Int(digits)
        }
        func change() -> Change? {
            let day: Change.Day
            if s.first == "M" {
                s = s.dropFirst()
                guard let m = number(), s.first == ".", (1...12).contains(m) else { return nil }
                s = s.dropFirst()
                guard let w = number(), s.first == ".", (1...5).contains(w) else { return nil }
                s = s.dropFirst()
                guard let d = number(), (0...6).contains(d) else { return nil }
                day = .monthWeek(month: m, week: w, weekday: d)
            } else if s.first == "J" {
                s = s.dropFirst()
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var at = 7200
            if s.first == "/" {
                s = s.dropFirst()
                guard let t = time() else { return nil }
                at = t
            }
            return Change(day: day, time: at)
        }
        // POSIX offsets are west of UTC: "CST-8" is eight hours east.
        guard name(), let std = time() else { return nil }
        standard = Int32(-std)
        if s.isEmpty {
            daylight = nil; start = nil; end = nil
            return
        }
        guard name() else { return nil }
        var dst = -std + 3600
        if let first = s.first, first != "," {
            guard let t = time() else { return nil }
            dst = -t
        }
        // Without a rule, POSIX's default is the United States' (M3.2.0,M11.1.0).
        var from = Change(day: .monthWeek(month: 3, week: 2, weekday: 0), time: 7200)
        var to = Change(day: .monthWeek(month: 11, week: 1, weekday: 0), time: 7200)
        if s.first == "," {
            s = s.dropFirst()
            guard let a = change(), s.first == "," else { return nil }
            s = s.dropFirst()
            guard let b = change() else { return nil }
            from = a
            to = b
        }
        guard s.isEmpty else { return nil }
        daylight = Int32(dst)
        start = from
        end = to
    }
}
