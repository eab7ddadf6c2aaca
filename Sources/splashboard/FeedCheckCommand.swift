import FoundationEssentials
import Glibc
import SplashCore
import SplashDisplay
import SplashLink
import SplashServices

/// `splashboard feed check FEED [--json]`: the network program reads and checks the feed
/// (`splashboard-net feed check`, which speaks to the network); this program adds a problem
/// for each title its detail screen would cut at `preview`'s default sizes, laid out with
/// this device's fonts, and prints the report. Exit 0 clean, 1 problems, 2 the feed could not
/// be read.
struct FeedCheckCommand {
    let options: KioskOptions
    let environment: [String: String]

    /// Runs the check with the command line's `arguments` (after the program's name).
    func run(arguments: [String], json: Bool) -> Int32 {
        let program: String
        do {
            program = try NetworkLink.locateProgram(environment: environment)
        } catch {
            fail(error.explained, status: 1)
        }
        let asked = arguments.filter { $0 != "--json" } + ["--json"]
        let checked = ChildProgram.capture(program, asked, environment: environment)
        StandardStream.error.write(Data(checked.stderr.utf8))
        guard var report = FeedCheckReport(wire: Data(checked.stdout.utf8)) else {
            // Not a report (it failed before one was made): what it said stands.
            StandardStream.output.write(Data(checked.stdout.utf8))
            return checked.status == 0 ? 1 : checked.status
        }
        if report.error == nil {
            do {
                let fonts = try FontBook.located(font: options.font, memo: nil)
                report.problems += Self.cutTitles(report.texts, sizes: OptionParser.previewSizes, fonts: fonts)
            } catch {
                fputs("note: the titles are not laid out (\(error.explained)): whether a screen would cut one is not checked\n", stderr)
            }
        }
        if json {
            print(report.json.encoded())
        } else {
            for line in report.lines { print(line) }
        }
        return report.exitStatus
    }

    /// A problem for each title cut at one of `sizes`: where, and what is left of it.
    static func cutTitles(_ texts: [FeedCheckReport.CampaignText], sizes: [Size], fonts: FontBook) -> [String] {
        texts.compactMap { text in
            guard let title = text.title else { return nil }
            let cuts = TitleFit.cuts(title: title, detail: text.detail, link: text.linkURL, label: text.linkLabel, sizes: sizes,
                                     fonts: fonts)
            guard let first = cuts.first else { return nil }
            let screens = cuts.map { "\($0.screen.width)x\($0.screen.height)" }.joined(separator: ", ")
            let last = first.shown.last ?? ""
            return "\(text.place).title: cut on the detail screen at \(screens) (its \(first.shown.count) lines there end "
                + "\"\(last)\"): a shorter title is shown whole"
        }
    }
}
