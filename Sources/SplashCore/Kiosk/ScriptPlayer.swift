/// Plays a `--script`: hands out the steps that are due by a moment of the run clock, and
/// says which actions each stands for (a tap is a press and a release; `tap skip` is a tap
/// on the pill wherever the screen puts it).
public struct ScriptPlayer: Equatable, Sendable {
    private var steps: ArraySlice<ScriptStep>

    /// A player of `steps`, which must be in time order (as `ScriptStep.parse` returns them).
    public init(_ steps: [ScriptStep]) {
        self.steps = steps[...]
    }

    /// When the next step is due; nil when the script has ended.
    public var nextTime: Seconds? { steps.first?.time }

    /// The steps due by `uptime`, in order, taken off the script.
    public mutating func due(at uptime: Seconds) -> [ScriptStep] {
        var due: [ScriptStep] = []
        while let step = steps.first, step.time <= uptime {
            due.append(step)
            steps = steps.dropFirst()
        }
        return due
    }

    /// The actions `step` stands for, as the kiosk in `state` would receive them at `now`.
    public static func actions(for step: ScriptStep, in state: KioskState, at now: Instant) -> [KioskAction] {
        switch step.action {
        case .tap(let p): return [.pressed(p, now), .released(p, now)]
        case .tapSkip:
            let p = state.skipButton.frame.center
            return [.pressed(p, now), .released(p, now)]
        case .press(let p): return [.pressed(p, now)]
        case .release(let p): return [.released(p, now)]
        case .key(let k): return [.keyPressed(k, now)]
        }
    }
}
