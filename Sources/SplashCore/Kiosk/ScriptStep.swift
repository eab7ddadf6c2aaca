/// One line of a `--script` file: at `time` seconds after start, do `action`.
public struct ScriptStep: Equatable, Sendable {
    /// What a step does.
    public enum Action: Equatable, Sendable {
        /// A tap at a point in layout coordinates.
        case tap(Point)
        /// A tap on the middle of the 跳过 pill, wherever it is on this screen.
        case tapSkip
        /// A finger going down (the start of `hold`).
        case press(Point)
        /// A finger coming up (the end of `hold`).
        case release(Point)
        case key(Key)
    }

    /// Seconds after the start, on the run clock.
    public var time: Seconds
    /// What happens then.
    public var action: Action

    /// A step that does `action` at `time`.
    public init(time: Seconds, action: Action) {
        self.time = time
        self.action = action
    }

    /// Parses a script: `<seconds> tap X Y`, `<seconds> tap skip`, `<seconds> hold X Y
    /// SECONDS` (a long press), `<seconds> swipe X1 Y1 X2 Y2 SECONDS` (down at the first
    /// point, up at the second), `<seconds> key NAME` (escape, space, enter, f2, ctrl+o,
    /// pagedown, pageup, left, right, or any other name for a key the splash ignores), one
    /// per line, `#` comments. Steps are returned in time order.
    public static func parse(_ text: String, path: String) throws -> [ScriptStep] {
        var steps: [ScriptStep] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty { continue }
            let source = "\(path):\(index + 1)"
            guard let time = Double(words[0]), time.isFinite, time >= 0 else {
                throw OptionError(source: source, problem: "expected a time in seconds first, got \"\(words[0])\"")
            }
            let rest = Array(words.dropFirst())
            let action: Action
            switch rest.first {
            case "tap" where rest.count == 2 && rest[1] == "skip":
                action = .tapSkip
            case "tap" where rest.count == 3:
                guard let x = Int(rest[1]), let y = Int(rest[2]) else {
                    throw OptionError(source: source, problem: "expected `tap X Y` with whole numbers, got \"\(rest.joined(separator: " "))\"")
                }
                action = .tap(Point(x: x, y: y))
            case "hold" where rest.count == 4:
                guard let x = Int(rest[1]), let y = Int(rest[2]), let seconds = Double(rest[3]), seconds >= 0,
                      seconds.isFinite
                else {
                    throw OptionError(source: source, problem: "expected `hold X Y SECONDS`, got \"\(rest.joined(separator: " "))\"")
                }
                steps.append(ScriptStep(time: time, action: .press(Point(x: x, y: y))))
                steps.append(ScriptStep(time: time + seconds, action: .release(Point(x: x, y: y))))
                continue
            case "swipe" where rest.count == 6:
                guard let x1 = Int(rest[1]), let y1 = Int(rest[2]), let x2 = Int(rest[3]), let y2 = Int(rest[4]),
                      let seconds = Double(rest[5]), seconds >= 0, seconds.isFinite
                else {
                    throw OptionError(source: source, problem: "expected `swipe X1 Y1 X2 Y2 SECONDS`, got \"\(rest.joined(separator: " "))\"")
                }
                steps.append(ScriptStep(time: time, action: .press(Point(x: x1, y: y1))))
                steps.append(ScriptStep(time: time + seconds, action: .release(Point(x: x2, y: y2))))
                continue
            case "key" where rest.count == 2:
                switch rest[1].lowercased() {
                case "escape", "esc": action = .key(.escape)
                case "space": action = .key(.space)
                case "enter", "return": action = .key(.enter)
                case "f2", "ctrl+o": action = .key(.operatorView)
                case "pagedown", "pgdn": action = .key(.pageDown)
                case "pageup", "pgup": action = .key(.pageUp)
                case "right": action = .key(.right)
                case "left": action = .key(.left)
                default: action = .key(.other)
                }
            default:
                throw OptionError(source: source,
                                  problem: "expected `tap X Y`, `tap skip`, `hold X Y SECONDS`, `swipe X1 Y1 X2 Y2 SECONDS` or `key NAME`, got \"\(rest.joined(separator: " "))\"")
            }
            steps.append(ScriptStep(time: time, action: action))
        }
        return steps.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}
