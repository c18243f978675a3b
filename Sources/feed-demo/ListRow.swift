/// What the screen needs from an item: the simulated posts and `--url`'s JSON items.
protocol ListRow {
    /// The item's identity as the list shows it, such as `#42`.
    var idLabel: String { get }
    /// One line of the list, without its position; the id label takes `idWidth` characters.
    func line(idWidth: Int) -> String
}

extension String {
    /// The text on one line: line breaks, tabs and other control characters become spaces (a
    /// server's text must not move the cursor of the terminal).
    var singleLine: String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}
