import FoundationEssentials

/// The database's old names (`PRC`, `Japan`, `US/Eastern`) and the zones they stand for.
/// Debian 13 moved their files to `tzdata-legacy`, which is not installed by default;
/// `tzdata.zi` still lists every link, so a feed that names an old zone works everywhere.
enum ZoneLinks {
    /// The links in `tzdata.zi`'s text: each `L TARGET NAME` line, by name.
    static func parse(_ text: String) -> [String: String] {
        var links: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("L ") {
            let fields = line.split(separator: " ")
            guard fields.count == 3 else { continue }
            links[String(fields[2])] = String(fields[1])
        }
        return links
    }

    /// The links of the database in `directory`; none when it has no `tzdata.zi`.
    static func read(directory: String) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: directory + "/tzdata.zi"), data.count < 1 << 20 else { return [:] }
        return parse(String(decoding: data, as: UTF8.self))
    }
}
