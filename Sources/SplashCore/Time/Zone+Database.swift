import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Zones by name: read from the zone database's files (TZif, RFC 8536) once each, and the
/// device's own zone from `TZ` or `/etc/localtime`.
public extension Zone {
    /// Where the zone files are: `TZDIR`, else `/usr/share/zoneinfo`.
    static var directory: String {
        if let dir = getenv("TZDIR").map({ String(cString: $0) }), !dir.isEmpty { return dir }
        return "/usr/share/zoneinfo"
    }

    /// The zone named `identifier` (`Asia/Shanghai`, `UTC`, `PRC`, a fixed offset such as
    /// `UTC+8` or `GMT-03:30`), or nil when there is none of that name.
    init?(identifier: String) {
        if let fixed = Self.fixedOffset(identifier) {
            self.init(secondsFromGMT: fixed)
            return
        }
        guard let zone = ZoneCache.shared.zone(identifier) else { return nil }
        self = zone
    }

    /// The device's zone: `TZ` (a name, or `:name`), else the zone `/etc/localtime` points
    /// at, else `/etc/timezone`'s, else UTC. Read once per process, as Foundation's
    /// `TimeZone.current` was: a listing asks for it at every row.
    static let current: Zone = readCurrent()

    private static func readCurrent() -> Zone {
        if let tz = getenv("TZ").map({ String(cString: $0) }), !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if let zone = Zone(identifier: name) { return zone }
            if let rule = ZoneRule(tz) { return Zone(identifier: tz, initial: rule.standard, rule: rule) }
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/etc/localtime", &buffer, buffer.count - 1)
        if n > 0 {
            let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let range = target.firstRange(of: "zoneinfo/"), let zone = Zone(identifier: String(target[range.upperBound...])) {
                return zone
            }
        }
        if let data = FileManager.default.contents(atPath: "/etc/timezone"),
           let zone = Zone(identifier: String(decoding: data, as: UTF8.self).trimmed) {
            return zone
        }
        if let data = FileManager.default.contents(atPath: "/etc/localtime"), let zone = Zone(identifier: "localtime", tzif: data) {
            return zone
        }
        return Zone(identifier: "UTC", initial: 0)
    }

    /// The database's names, for suggesting one close to a name that is not there.
    static func knownIdentifiers() -> [String] {
        let root = directory
        guard let paths = try? FileManager.default.subpathsOfDirectory(atPath: root) else { return [] }
        let files = paths.filter { path in
            guard let first = path.first, first.isUppercase, !path.hasSuffix(".tab"), !path.hasSuffix(".zi") else { return false }
            var info = stat()
            return stat(root + "/" + path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
        let links = ZoneLinks.read(directory: root).keys
        return Array(Set(files).union(links)).sorted()
    }

    /// `UTC+8`, `GMT-03:30`, `UTC+0530`, `GMT+0800` as seconds east, else nil.
    static func fixedOffset(_ name: String) -> Int? {
        let upper = name.uppercased()
        guard upper.hasPrefix("UTC") || upper.hasPrefix("GMT") else { return nil }
        let rest = upper.dropFirst(3)
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let body = rest.dropFirst()
        let hours: Int
        let minutes: Int
        if let colon = body.firstIndex(of: ":") {
            guard let h = Int(body[..<colon]), let m = Int(body[body.index(after: colon)...]) else { return nil }
            (hours, minutes) = (h, m)
        } else if body.count > 2 {
            guard body.count == 4, let h = Int(body.prefix(2)), let m = Int(body.suffix(2)) else { return nil }
            (hours, minutes) = (h, m)
        } else {
            guard let h = Int(body) else { return nil }
            (hours, minutes) = (h, 0)
        }
        guard body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }), hours <= 18, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The zone a TZif file's bytes describe, or nil when they are not one.
    init?(identifier: String, tzif data: Data) {
        let b = [UInt8](data)
        func u32(_ at: Int) -> Int { Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) }
        func i32(_ at: Int) -> Int64 { Int64(Int32(bitPattern: UInt32(u32(at)))) }
        func i64(_ at: Int) -> Int64 { Int64(bitPattern: UInt64(u32(at)) << 32 | UInt64(u32(at + 4))) }
        guard b.count >= 44, b[0] == 0x54, b[1] == 0x5A, b[2] == 0x69, b[3] == 0x66 else { return nil }
        let version = b[4]
        func counts(_ at: Int) -> (isut: Int, isstd: Int, leap: Int, time: Int, type: Int, char: Int) {
            (u32(at + 20), u32(at + 24), u32(at + 28), u32(at + 32), u32(at + 36), u32(at + 40))
        }
        var header = 0
        var wide = false
        var c = counts(0)
        if version >= 0x32 {
            // Skip the 32-bit block; the 64-bit one follows with its own header.
            let v1 = 44 + c.time * 5 + c.type * 6 + c.char + c.leap * 8 + c.isstd + c.isut
            guard b.count >= v1 + 44 else { return nil }
            header = v1
            wide = true
            c = counts(header)
        }
        let timeSize = wide ? 8 : 4
        var at = header + 44
        let blockEnd = at + c.time * (timeSize + 1) + c.type * 6 + c.char + c.leap * (timeSize + 4) + c.isstd + c.isut
        guard c.type > 0, b.count >= blockEnd else { return nil }
        var times: [Int64] = []
        for i in 0..<c.time { times.append(wide ? i64(at + i * 8) : i32(at + i * 4)) }
        at += c.time * timeSize
        let indices = Array(b[at..<at + c.time])
        at += c.time
        var typeOffsets: [Int32] = []
        for i in 0..<c.type { typeOffsets.append(Int32(truncatingIfNeeded: i32(at + i * 6))) }
        guard indices.allSatisfy({ Int($0) < c.type }) else { return nil }
        var rule: ZoneRule?
        if wide, blockEnd < b.count, b[blockEnd] == 0x0A,
           let close = b[(blockEnd + 1)...].firstIndex(of: 0x0A), close > blockEnd + 1 {
            rule = ZoneRule(String(decoding: b[(blockEnd + 1)..<close], as: UTF8.self))
        }
        self.init(identifier: identifier, transitions: times, offsets: indices.map { typeOffsets[Int($0)] },
                  initial: typeOffsets[0], rule: rule)
    }
}

/// The zones read so far, by name: each file is read once per process.
final class ZoneCache: @unchecked Sendable {
    static let shared = ZoneCache(directory: Zone.directory)
    let directory: String
    private var zones: [String: Zone?] = [:]
    private let lock = Lock()

    init(directory: String) {
        self.directory = directory
    }

    func zone(_ identifier: String) -> Zone? {
        lock.withLock {
            if let known = zones[identifier] { return known }
            var zone = read(identifier, as: identifier)
            if zone == nil, let target = links[identifier] { zone = read(target, as: identifier) }
            zones[identifier] = zone
            return zone
        }
    }

    private lazy var links: [String: String] = ZoneLinks.read(directory: directory)

    /// A name of the database: letters, digits and `/_+-`, no `..`, and a TZif file there.
    private func read(_ identifier: String, as name: String) -> Zone? {
        guard !identifier.isEmpty, identifier.count < 100, !identifier.hasPrefix("/"), !identifier.contains(".."),
              identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }),
              let data = FileManager.default.contents(atPath: directory + "/" + identifier), data.count < 1 << 20
        else { return nil }
        return Zone(identifier: name, tzif: data)
    }
}
