import Foundation
import SplashTestSupport
import Testing

/// The version a package gets from git (`scripts/version.sh`), read by real git and
/// ordered by real dpkg: each commit's package is an upgrade to apt from the one before.
@Suite struct PackageVersionTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `arguments` in `folder`, with `environment` added; what it printed, trimmed,
    /// and its exit status.
    static func run(_ arguments: [String], in folder: String, environment: [String: String] = [:]) throws -> (String, Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text.trimmingCharacters(in: .whitespacesAndNewlines), process.terminationStatus)
    }

    @Test func eachCommitsPackageIsNewerThanTheLastAndAChangedTreeNewerStill() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/Sources/SplashCore/Options", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.checkout.appendingPathComponent("scripts/version.sh").path,
                                         toPath: folder + "/scripts/version.sh")
        try FileManager.default.copyItem(atPath: Self.checkout.appendingPathComponent("Sources/SplashCore/Options/Version.swift").path,
                                         toPath: folder + "/Sources/SplashCore/Options/Version.swift")
        let version = { try Self.run(["sh", "scripts/version.sh"], in: folder) }

        // Outside git: the product's version alone.
        let (plain, status) = try version()
        #expect(status == 0 && plain.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil, "\(plain)")

        let author = ["GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                      "GIT_COMMITTER_EMAIL": "t@example.com"]
        _ = try Self.run(["git", "init", "-q"], in: folder)
        _ = try Self.run(["git", "add", "."], in: folder)
        // Committed at 23:30 in Shanghai: the stamp is the commit's time in UTC, whatever the zone.
        _ = try Self.run(["git", "commit", "-q", "-m", "one"], in: folder,
                         environment: author.merging(["GIT_COMMITTER_DATE": "2001-02-03T23:30:00+08:00"]) { $1 })
        let (first, _) = try version()
        #expect(first.range(of: #"^\#(plain)\+git20010203\.153000\.[0-9a-f]{7}$"#, options: .regularExpression) != nil, "\(first)")

        try "// changed\n".write(toFile: folder + "/scripts/note.txt", atomically: true, encoding: .utf8)
        _ = try Self.run(["git", "add", "."], in: folder)
        _ = try Self.run(["git", "commit", "-q", "-m", "two"], in: folder,
                         environment: author.merging(["GIT_COMMITTER_DATE": "2001-02-04T08:00:00+00:00"]) { $1 })
        let (second, _) = try version()
        // A tracked file changed and not committed: stamped with the build's time, ".dirty".
        try "// changed again\n".write(toFile: folder + "/scripts/note.txt", atomically: true, encoding: .utf8)
        let (dirty, _) = try version()
        #expect(dirty.hasSuffix(".dirty"), "\(dirty)")

        for (older, newer) in [(plain, first), (first, second), (second, dirty)] {
            let (_, ordered) = try Self.run(["dpkg", "--compare-versions", newer, "gt", older], in: folder)
            #expect(ordered == 0, "\(newer) is not after \(older) for dpkg")
        }
    }
}
