import SplashCore

/// One sync's own, made anew at its start: its time, and the addresses of the files it
/// found changed and replaced.
struct SyncRun {
    var budget = SyncBudget(from: 0, seconds: .infinity)
    var replaced: [String] = []
}
