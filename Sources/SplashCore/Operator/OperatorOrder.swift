import FoundationEssentials

/// How the operator view orders the library, to answer the operator's questions: the
/// campaign the next splash shows first, then the other eligible ones in the order the
/// rule would pick them, then those with a problem (a picture missing or refused), then
/// those that wait (not started, outside their hours or days, capped for today, too soon,
/// waiting for the clock), then the finished ones (used up, ended).
public enum OperatorOrder: Int, Comparable, Sendable {
    case next = 0
    case eligible
    case problem
    case waiting
    case finished

    /// Orders the groups as the view lists them, `next` first.
    public static func < (a: OperatorOrder, b: OperatorOrder) -> Bool { a.rawValue < b.rawValue }

    /// The group of a campaign that is not the next one, by why it is not shown.
    public init(reason: Ineligibility?) {
        guard let reason else { self = .eligible; return }
        self = reason.isFinished ? .finished : reason.isPictureProblem ? .problem : .waiting
    }

    /// The catalog's indices in the view's order, each with its group.
    public static func ordered(_ catalog: [CatalogEntry], at date: Date, context: RuleContext) -> [(Int, OperatorOrder)] {
        // Each campaign's standing once: a library of thousands is ordered at every page turn.
        let reasons = catalog.map { CampaignRules.reason(of: $0, at: date, context: context) }
        let next = CampaignRules.pick(in: catalog, among: catalog.indices.filter { reasons[$0] == nil }, context: context)
        // Sort keys worked out once per campaign: the group; among the eligible, the order the
        // rule picks them in (priority, then the least recently shown with `rotate`); then the
        // newest first (later `updatedAt`, then later in the feed); then feed order.
        let keys = catalog.indices.map { i -> (group: Int, priority: Int, shown: Double, updated: Double, position: Int) in
            let e = catalog[i]
            let group: OperatorOrder = i == next ? .next : OperatorOrder(reason: reasons[i])
            let ranked = group == .eligible
            return (group.rawValue, ranked ? -e.campaign.priority : 0,
                    ranked && context.pick == .rotate ? (e.lastShownAt ?? .distantPast).timeIntervalSince1970 : 0,
                    -(e.campaign.updatedAt ?? .distantPast).timeIntervalSince1970, -e.campaign.position)
        }
        return catalog.indices.sorted { a, b in
            let ka = keys[a], kb = keys[b]
            if ka.group != kb.group { return ka.group < kb.group }
            if ka.priority != kb.priority { return ka.priority < kb.priority }
            if ka.shown != kb.shown { return ka.shown < kb.shown }
            if ka.updated != kb.updated { return ka.updated < kb.updated }
            if ka.position != kb.position { return ka.position < kb.position }
            return a < b
        }.map { ($0, OperatorOrder(rawValue: keys[$0].group) ?? .waiting) }
    }
}
