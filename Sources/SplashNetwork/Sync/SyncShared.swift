import SplashCore

/// What a sync's downloads, running side by side, write: the hosts (host:port) whose last
/// picture could not be fetched (no answer, no connection), remembered across syncs, and
/// the validators of the files this sync fetched, written once at its end.
struct SyncShared {
    var unanswered = Set<String>()
    var fetchedValidators: [String: FileValidators] = [:]
}
