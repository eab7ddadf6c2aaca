import FoundationEssentials

/// What syncs remember of each other, in memory: when each cached file was last found
/// unchanged, by cache key (a "not modified" answer writes nothing).
struct SyncMemory {
    var lastChecked: [String: Date] = [:]
}
