import Glibc
import FoundationEssentials
import SplashCore
import SplashServices
import SplashStorage

/// `splashboard feed check`: a feed read and validated exactly as a sync would — the same
/// fetch limits and address rule, the same decoder, the same picture checks — with every
/// picture fetched into a throwaway folder, so the device's database, cache and ledger
/// are never opened.
public struct FeedCheck {
    /// What a check found.
    public typealias Report = FeedCheckReport

    let fetcher: Fetcher
    /// The largest clip fetched (`video-max-mb`).
    let videoMaxBytes: Int

    /// A check that fetches through `fetcher`, with its limits, clips of at most `videoMaxBytes`.
    /// Whether this device's fonts can draw a character: text they cannot is a problem.
    public var canDraw: ((Unicode.Scalar) -> Bool)?

    /// The groups of the device checked for (`--device-groups`): only its campaigns' pictures
    /// are fetched, and the others are named. Nil: every campaign.
    public var device: DeviceGroups?
    /// The fleet's groups (`--groups-known`): a group the feed names beyond them is a problem.
    public var knownGroups: [String]?

    public init(fetcher: Fetcher = Fetcher(), videoMaxBytes: Int = VideoLimits.defaultMaxMB << 20) {
        self.fetcher = fetcher
        self.videoMaxBytes = videoMaxBytes
    }

    /// Checks `feed`, fetching its pictures into a folder of its own under `scratch`,
    /// removed afterwards.
    public func run(_ feed: URL, scratch: String = TemporaryFolder.path, deviceZone: Zone) -> Report {
        var report = Report(feed: feed)
        let data: Data
        do {
            let fetch = { [fetcher] in try fetcher.fetchData(feed, limit: FeedSync.feedLimit).1 }
            data = try AddressGuard.installed?.whileFetchingFeed(fetch) ?? fetch()
        } catch {
            report.error = error.explained
            return report
        }
        var document: FeedDocument
        do {
            document = try FeedDocument.decode(data, from: feed, deviceZone: deviceZone, canDraw: canDraw)
        } catch FeedError.noValidCampaigns(let warnings) {
            // Read, and every entry named: problems (1), not unreadable (2). A sync refuses it.
            report.problems = warnings + ["(document): no campaign in the feed is valid: a sync would refuse it and keep the feed in force"]
            return report
        } catch {
            report.error = error.explained
            return report
        }
        report.campaigns = document.campaigns.count
        report.problems = document.warnings
        if let knownGroups {
            // Groups a device could be in: the fleet's, and the device's own when it is named.
            let known = Set(knownGroups + (device?.memberships ?? []))
            for campaign in document.campaigns {
                for group in campaign.groups ?? [] where !known.contains(group) {
                    report.problems.append("\(document.place(of: "groups", inEntry: campaign.position)): names \"\(group)\", which "
                                           + "--groups-known does not list: no screen of the fleet is in it (a typo shows the campaign nowhere; a device id a "
                                           + "campaign targets belongs in --groups-known too)")
                }
            }
            for schedule in document.groupScreens where !known.contains(schedule.group) {
                report.problems.append("groups.\(schedule.group): a screen schedule for a group --groups-known does not list: no "
                                       + "screen follows it (a typo, or a group to add to the fleet's list)")
            }
        }
        if let device, !device.isEverywhere {
            let mine = document.campaigns.filter { device.includes($0.groups) }
            report.forDevice = mine.map(\.id.rawValue)
            report.notForDevice = document.campaigns.filter { !device.includes($0.groups) }.map { campaign -> String in
                let place: String = "\(document.place(ofEntry: campaign.position)) (\(campaign.id))"
                let memberships: String = device.memberships.joined(separator: ", ")
                let groups: [String] = campaign.groups ?? []
                let target: String = campaign.groups == nil ? "" : groups.isEmpty ? "for no screen" : "for the groups \(groups.joined(separator: ", "))"
                let hint: String = DeviceGroups.caseHint(groups, device: device.memberships) ?? ""
                return "\(place): not shown on a device in \(memberships): \(target)\(hint)"
            }
            if let conflict = document.screen(for: device).warning { report.problems.append(conflict) }
            report.problems += device.unmatched(campaignGroups: document.campaigns.map(\.groups),
                                                scheduleGroups: document.groupScreens.map(\.group))
            // Only its campaigns' pictures and clips are fetched, as its syncs would.
            document.campaigns = mine
        }
        // What each campaign that applies says: the display program lays its title out.
        report.texts = document.campaigns.map {
            FeedCheckReport.CampaignText(place: document.place(ofEntry: $0.position), id: $0.id.rawValue, title: $0.title, detail: $0.detail,
                                         linkURL: $0.linkURL?.absoluteString, linkLabel: $0.linkLabel)
        }
        let folder = (scratch.hasSuffix("/") ? scratch : scratch + "/") + "splashboard-feed-check-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache: ImageCache
        do {
            cache = try ImageCache(folder: folder)
        } catch {
            report.problems.append("(pictures): not checked: cannot make a scratch folder in \(scratch): \(error.explained)")
            return report
        }
        var outcomes: [String: ImageDownloader.Outcome] = [:]
        let downloader = ImageDownloader(cache: cache, fetcher: fetcher)
        // Each campaign's picture, and its picture for portrait screens where it has one.
        let pictures = document.campaigns.flatMap { campaign in
            [(campaign, "picUrl", campaign.picURL)] + (campaign.portraitURL.map { [(campaign, "picUrlPortrait", $0)] } ?? [])
        }
        for (campaign, field, url) in pictures {
            let key = ImageCache.key(for: url)
            let outcome: ImageDownloader.Outcome
            if let done = outcomes[key] {
                outcome = done
            } else {
                outcome = downloader.download(url, as: key)
                outcomes[key] = outcome
                report.pictures += 1
            }
            let place = document.place(of: field, inEntry: campaign.position)
            switch outcome {
            case .cached(_, _, .stillBecause(let why, _)):
                report.problems.append("\(place): picture \(url.publicAddress) would be shown still, its animation "
                                       + "not played: \(why)")
            case .cached: break
            case .refused(let reason):
                report.problems.append("\(place): picture \(url.publicAddress) refused: \(reason)")
            case .unavailable(let reason):
                report.problems.append("\(place): picture \(url.publicAddress) could not be fetched: \(reason)")
            case .noRoom:
                report.problems.append("\(place): picture \(url.publicAddress) is larger than the picture limit")
            }
            // Its own picture missing, a campaign waits (a portrait one stands in for nothing).
            switch outcome {
            case .refused, .unavailable, .noRoom:
                if field == "picUrl", !report.waitingForPicture.contains(campaign.id.rawValue) { report.waitingForPicture.append(campaign.id.rawValue) }
            case .cached: break
            }
        }
        checkVideos(document, cache: cache, into: &report)
        return report
    }

    /// Each campaign's clip fetched and probed as a sync would (the media process's checks),
    /// into the same scratch folder.
    func checkVideos(_ document: FeedDocument, cache: ImageCache, into report: inout Report) {
        let clips = document.campaigns.filter { $0.videoURL != nil }
        guard !clips.isEmpty else { return }
        let downloader = VideoDownloader(cache: cache, like: fetcher, maxBytes: videoMaxBytes)
        var outcomes: [String: VideoDownloader.Outcome] = [:]
        for campaign in clips {
            guard let url = campaign.videoURL else { continue }
            let key = ImageCache.key(for: url)
            if outcomes[key] == nil {
                outcomes[key] = downloader.download(url, as: key, room: videoMaxBytes)
                report.videos += 1
            }
            let place = document.place(of: "videoUrl", inEntry: campaign.position)
            switch outcomes[key]! {
            case .cached: break
            case .refused(let reason):
                report.problems.append("\(place): video \(url.publicAddress) would not be played (its picture is shown): \(reason)")
            case .unavailable(let reason):
                report.problems.append("\(place): video \(url.publicAddress) could not be fetched: \(reason)")
            case .noRoom:
                report.problems.append("\(place): video \(url.publicAddress) is larger than video-max-mb")
            }
        }
    }
}
