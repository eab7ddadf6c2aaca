import Glibc
import FoundationEssentials
import SplashCore
import SplashDisplay
import SplashLink
import SplashServices
import SplashStorage

/// `splashboard sync`, `splashboard campaigns` and `splashboard cache clear`.
struct DeviceCommands {
    let options: KioskOptions
    let environment: [String: String]

    private func open() -> DeviceStorage {
        do {
            return try DeviceStorage(options: options, assets: Assets.locate(environment: environment))
        } catch {
            fail(error.explained, status: 1)
        }
    }

    /// One sync now, by the network process's program (this one links no networking):
    /// it prints the summary; exit 0 when the feed applied (or had not changed), 1 with the reason.
    func sync(arguments: [String]) -> Never {
        let program: String
        do {
            program = try NetworkLink.locateProgram(environment: environment)
        } catch {
            fail(error.explained, status: 1)
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        execv(program, argv)
        fail("cannot run \(program): \(String(cString: strerror(errno)))", status: 1)
    }

    /// The stored campaigns with their counts, cache and eligibility; with `thumbnails`,
    /// their stored thumbnails written there as JPEG files.
    func campaigns(json: Bool, thumbnails: String?) -> Int32 {
        // Listing writes nothing: a folder with no database has no campaigns, and none is made.
        guard FileManager.default.fileExists(atPath: options.dataDir + "/" + CampaignStore.fileName) else {
            if json {
                print("[]")
            } else {
                print("no campaigns stored in \(options.dataDir); run `splashboard sync` with this device's --feed (or its config)")
            }
            return 0
        }
        let device = open()
        // The feed the campaigns came from, unless one is named: its record is what is shown.
        let feed = options.feed ?? (try? device.store.appliedFeed()) ?? device.feed
        let now = options.now ?? Date()
        let stored: [CampaignStore.StoredCampaign]
        let catalog: [CatalogEntry]
        do {
            stored = try device.store.campaigns()
            catalog = try device.store.catalog(cache: device.cache)
        } catch {
            fail(error.explained, status: 1)
        }
        // The rules as the running kiosk applies them: the clock's trust, this zone, --pick.
        let context = DeviceRules.context(at: now, catalog: catalog, environment: environment, pick: options.pick,
                                          device: device.store.device)
        let newest = CatalogEntry.nextToShow(in: catalog, at: now, context: context)
        let feedState = try? device.store.feedState(for: feed)
        let stamp = { (date: Date?) -> JSONValue in date.map { .string(ISO8601.string(from: $0)) } ?? .null }
        // When an eligible campaign runs out at the rate of its latest shows (every show counts).
        let runOut = { (entry: CatalogEntry) -> String? in
            entry.isEligible(at: now, context: context) ? device.store.runOut(of: entry) : nil
        }
        if let dir = thumbnails {
            do {
                let written = try ThumbnailExport.write(stored, to: dir)
                fputs("wrote \(Plural.count(written.count, "thumbnail")) to \(dir)\n", stderr)
            } catch {
                fail(error.explained, status: 1)
            }
        }
        if json {
            // Counts are this device's: each row says whose.
            let deviceID = device.deviceID.map(JSONValue.string) ?? .null
            // The two reads are joined by id, not by position: a sync between them may have
            // added or retired a campaign.
            let thumbnailed = Set(stored.filter { $0.thumbnail != nil }.map(\.campaign.id))
            let items: [JSONValue] = catalog.enumerated().map { index, entry in
                let c = entry.campaign
                // Typed up front: Swift 6.0's type checker gives up on the literal otherwise.
                let fields: [(String, JSONValue)] = [
                    ("device", deviceID), ("feedLastSync", stamp(feedState?.lastConfirmed)),
                    ("feedLastChange", stamp(feedState?.lastChange)),
                    ("id", .string(c.id.rawValue)), ("title", c.title.map(JSONValue.string) ?? .null),
                    ("picUrl", .string(c.picURL.absoluteString)),
                    ("groups", c.groups.map { .array($0.map(JSONValue.string)) } ?? .null),
                    ("showTime", .int(c.showLimit)), ("shows", .int(entry.shows)), ("remaining", .int(entry.remaining)),
                    ("cached", .bool(entry.imagePath != nil)), ("eligible", .bool(entry.isEligible(at: now, context: context))),
                    ("shownStill", entry.stillBecause.map(JSONValue.string) ?? .null),
                    ("reason", entry.ineligibility(at: now, context: context).map(JSONValue.string) ?? .null),
                    ("eligibleAgain", CampaignRules.nextEligible(entry, after: now, context: context)
                        .map { .string(ISO8601.string(from: $0)) } ?? .null),
                    ("priority", .int(c.priority)),
                    ("runsOut", runOut(entry).map(JSONValue.string) ?? .null),
                    ("newest", .bool(index == newest)),
                    ("startAt", c.startAt.map { .string(ISO8601.string(from: $0)) } ?? .null),
                    ("endAt", c.endAt.map { .string(ISO8601.string(from: $0)) } ?? .null),
                    ("updatedAt", c.updatedAt.map { .string(ISO8601.string(from: $0)) } ?? .null),
                    ("thumbnail", .bool(thumbnailed.contains(c.id))),
                    ("videoUrl", videoURL(c)),
                    // Its clip: played (with what the media process found), or why not.
                    ("video", videoState(entry)),
                    // Its last shows, newest first, as the operator view's campaign page lists them.
                    ("lastShows", .array(((try? device.store.lastShows(of: c.id, limit: OperatorCampaignPage.showsListed)) ?? [])
                        .map { .object([("at", .string(ISO8601.string(from: $0.shownAt))), ("endedBy", .string($0.endedBy.rawValue))]) })),
                ]
                return .object(fields)
            }
            print(JSONValue.array(items).encoded())
            return 0
        }
        if catalog.isEmpty {
            print("no campaigns stored; run `splashboard sync` (feed: \(feed.publicAddress)"
                  + (options.feed == nil && options.configPath == nil ? ", the bundled demo: none is set" : "") + ")")
            printFeedState(feedState, of: feed)
            return 0
        }
        // A video column when any campaign has a clip or an animated GIF: what plays, or the
        // poster and why.
        let videos = catalog.contains { $0.campaign.videoURL != nil || $0.video != nil }
        var table = TextTable(header: ["id", "title", "remaining/showTime", "cached", "eligible", "newest"]
                              + (videos ? ["video"] : []))
        var videoNotes: [String] = []
        var stillNotes: [String] = []
        for (index, entry) in catalog.enumerated() {
            var reason = entry.ineligibility(at: now, context: context)
            if let again = CampaignRules.nextEligible(entry, after: now, context: context), let why = reason {
                reason = "\(why); from \(HumanTime.string(again, zone: .current))"
            }
            table.append([
                entry.campaign.id.rawValue, entry.campaign.title ?? "-", "\(entry.remaining)/\(entry.campaign.showLimit)",
                entry.imagePath != nil ? "yes" : "no", reason.map { "no (\($0))" } ?? "yes", index == newest ? "*" : "",
            ] + (videos ? [videoCell(entry)] : []))
            if let problem = entry.clipProblem?.reason {
                videoNotes.append("\(entry.campaign.id): \(problem)")
            }
            if let why = entry.stillBecause { stillNotes.append("\(entry.campaign.id): \(why)") }
        }
        print(table.render())
        // Every show counts, the attract loop's too: when each runs out at its latest rate.
        let runsOut: [String] = catalog.compactMap { entry in runOut(entry).map { "\(entry.campaign.id): \($0)" } }
        if !runsOut.isEmpty {
            print("runs out at the rate shown lately (every show counts, the attract loop's too):")
            for line in runsOut { print("  \(TerminalText.printable(line))") }
        }
        if !videoNotes.isEmpty {
            print("videos not played (their pictures are shown):")
            for note in videoNotes { print("  \(TerminalText.printable(note))") }
        }
        if !stillNotes.isEmpty {
            print("animated GIFs shown still (their first frame):")
            for note in stillNotes { print("  \(TerminalText.printable(note))") }
        }
        printFeedState(feedState, of: feed)
        return 0
    }

    private func videoURL(_ c: Campaign) -> JSONValue {
        c.videoURL.map { JSONValue.string($0.absoluteString) } ?? .null
    }

    /// A campaign's clip (or animated GIF) in `campaigns --json`: played (with what the media
    /// process found), or why not; null without one.
    private func videoState(_ entry: CatalogEntry) -> JSONValue {
        guard entry.campaign.videoURL != nil || entry.video != nil else { return .null }
        // A campaign whose clip does not play may still animate its GIF: `played` is about
        // the clip, `animation` about the picture.
        let played = entry.campaign.videoURL == nil ? entry.video != nil : Self.clipPlays(entry)
        let facts: JSONValue = played ? entry.video.map { JSONValue.string($0.facts.summary) } ?? .null : .null
        let animation: JSONValue = entry.video.flatMap { AnimationLimits.isAnimation($0.facts) ? .string($0.facts.summary) : nil }
            ?? .null
        var problem = JSONValue.null
        var waiting = JSONValue.null
        switch entry.clipProblem {
        case .refused(let why): problem = .string(why)
        case .notCached(let why): waiting = played ? .null : .string(why)
        case nil: break
        }
        return .object([("played", .bool(played)), ("facts", facts), ("animation", animation), ("problem", problem),
                        ("waiting", waiting)])
    }

    /// Whether the campaign's own clip plays (not its animated GIF instead).
    private static func clipPlays(_ entry: CatalogEntry) -> Bool {
        entry.video.map { !AnimationLimits.isAnimation($0.facts) } ?? false
    }

    /// A campaign's clip in the table: what plays, or why its picture is shown (animated,
    /// when it is a GIF that plays).
    private func videoCell(_ entry: CatalogEntry) -> String {
        if Self.clipPlays(entry) || (entry.campaign.videoURL == nil && entry.video != nil) {
            return entry.video?.facts.summary ?? "-"
        }
        guard entry.campaign.videoURL != nil else { return "-" }
        let shown = entry.video.map { "its \($0.facts.summary) shown" } ?? "picture shown"
        if case .refused = entry.clipProblem { return "no (\(shown))" }
        return "not cached yet"
    }

    /// The feed's freshness and the warnings of the feed in force, under the table.
    private func printFeedState(_ state: CampaignStore.FeedState?, of feed: URL) {
        guard let state else { return }
        func when(_ date: Date?) -> String { date.map { HumanTime.string($0, zone: .current, seconds: true) } ?? "never" }
        print("feed \(TerminalText.printable(feed.publicAddress)): last sync \(when(state.lastConfirmed)), last change \(when(state.lastChange))"
              + (state.lastError.map { "; last error: \(TerminalText.printable($0))" } ?? ""))
        if !state.warnings.isEmpty {
            print("feed warnings (\(state.warnings.count)):")
            for warning in state.warnings { print("  \(TerminalText.printable(warning))") }
        }
    }

    /// Empties the image cache; the ledger and campaigns stay.
    func clearCache() -> Int32 {
        let device = open()
        // A cache this user cannot write (the service's, as the display's user) is said so,
        // not "emptied" of nothing.
        if let problem = FolderAccess.problem(device.cache.folder, role: "cache") {
            fail(problem, status: 1)
        }
        let removed = device.cache.clear()
        // The remembered font, screen size and first picture go too: the next start asks
        // fontconfig again, and decodes its first picture whole once it has chosen it.
        try? FileManager.default.removeItem(atPath: FontLocator.memo(in: options.dataDir))
        try? FileManager.default.removeItem(atPath: ScreenMemo(dataDir: options.dataDir).file)
        try? FileManager.default.removeItem(atPath: FirstPictureMemo(dataDir: options.dataDir).file)
        do {
            try device.store.forgetImageProblems()
        } catch {
            fail(error.explained, status: 1)
        }
        print("removed \(Plural.count(removed, "file")) from \(device.cache.folder); the show ledger is kept")
        if ControlCommands(options: options).kioskAnswers {
            print("the running kiosk takes this before its next splash: its pictures are fetched again now, "
                  + "and no show is counted until a campaign's picture is back (the default picture shows meanwhile)")
        }
        return 0
    }
}
