/// The warm media process's own rule, derived from the state after every action rather than
/// after a hand-kept list of them: one is kept while the kiosk has started, its screen is
/// lit, none failed to start, and a campaign with shows left has a clip that plays — the
/// show on the screen that the ledger has not answered yet counting already. A change is
/// said first (the process loads its libraries while the show is being recorded); a video
/// show took the one kept, so another is asked for when one ended and one is still wanted.
enum MediaWarmRules {
    /// Whether one should be kept in `state` now.
    static func wanted(_ state: KioskState) -> Bool {
        guard state.lifecycle.hasStarted, state.screenPower.isOn, state.mediaWarmth != .failed else { return false }
        let asked: Campaign.ID? = if case .splash(let splash) = state.scene, !splash.counted { splash.campaignID } else { nil }
        return state.catalog.contains { $0.video != nil && $0.remaining - ($0.campaign.id == asked ? 1 : 0) > 0 }
    }

    /// Follows `state` after an action whose effects are `effects`: the change said first,
    /// a replacement asked for after a video show that ended.
    static func follow(_ state: inout KioskState, effects: inout [KioskEffect]) {
        let videoEnded = effects.contains { if case .stopVideo = $0 { true } else { false } }
        let want = wanted(state)
        let kept = state.mediaWarmth == .kept
        if want != kept {
            if state.mediaWarmth != .failed { state.mediaWarmth = want ? .kept : .cold }
            effects.insert(.keepMediaWarm(want), at: 0)
        } else if want, videoEnded {
            effects.append(.replaceWarmMedia)
        }
    }
}
