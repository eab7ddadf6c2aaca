/// One step of the database's schema: the schema number it leaves (`user_version`), what
/// it is for, and the statements that take a database there from the schema before.
struct Migration: Sendable {
    /// The schema this step leaves the database at.
    let version: Int
    /// What it is for, in a few words.
    let name: String
    /// The step itself, run inside the migration's transaction.
    let apply: @Sendable (SQLiteDatabase) throws -> Void

    init(_ version: Int, _ name: String, apply: @escaping @Sendable (SQLiteDatabase) throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }
}
