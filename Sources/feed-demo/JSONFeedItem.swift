/// One item of a page that `--url` fetched: any JSON value, shown by its `id` and a title.
///
/// The title is the first string of `title`, `name`, `login` and `full_name` (so GitHub's
/// repositories, users and issues read well), else the item's compact JSON.
struct JSONFeedItem: Identifiable, Sendable, Hashable, ListRow {
    /// The `id` member as text, or the compact JSON of the whole item when it has none (so
    /// that identical items count as one and different ones do not).
    let id: String
    let title: String
    /// Whether the item had an `id` member.
    let hasID: Bool

    static let titleKeys = ["title", "name", "login", "full_name"]

    init(_ value: JSONValue) {
        let compact = value.compactJSON
        if let id = value["id"]?.scalarText {
            self.id = id
            hasID = true
        } else {
            id = compact
            hasID = false
        }
        title = JSONFeedItem.titleKeys.lazy.compactMap { key -> String? in
            if case .string(let text)? = value[key] { return text }
            return nil
        }.first ?? compact
    }

    var idLabel: String { hasID ? "#\(id)" : "-" }

    func line(idWidth: Int) -> String {
        "\(idLabel.padded(to: idWidth))  \(title.singleLine)"
    }
}
