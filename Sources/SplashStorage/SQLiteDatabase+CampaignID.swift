import SplashCore

extension SQLiteDatabase.Value {
    /// A campaign's id, stored as its text.
    static func id(_ campaign: Campaign.ID) -> Self {
        let text: String = campaign.rawValue
        return SQLiteDatabase.Value.text(text)
    }
}
