/// What the screen needs from an item: the simulated posts and `--url`'s JSON items.
protocol ListRow {
    /// The item's identity as the list shows it, such as `#42`.
    var idLabel: String { get }
    /// One line of the list, without its position; the id label takes `idWidth` characters.
    func line(idWidth: Int) -> String
    /// The item's row in the data, 1 for the first item of the data, when the item knows it:
    /// a feed opened in the middle (`--open-at`) then numbers its rows as the data does, and a
    /// row keeps its number when pages land above it. `nil`: the row's place in the list.
    var rowNumber: Int? { get }
}

extension ListRow {
    var rowNumber: Int? { nil }
}

extension String {
    /// The text on one line: line breaks, tabs and other control characters become spaces (a
    /// server's text must not move the cursor of the terminal).
    var singleLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}
