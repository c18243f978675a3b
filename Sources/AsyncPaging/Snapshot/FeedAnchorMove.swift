/// Where the anchor's item went when a reload replaced the list (``FeedChange/reloaded(_:)``):
/// the row the user saw, as reported with
/// ``FeedController/reportVisibleRows(_:prefetchDistance:)``.
///
/// A UI keeps that item where it was on screen by showing row ``to`` of the new list where row
/// ``from`` of the older list was.
public struct FeedAnchorMove: Sendable, Hashable, CustomStringConvertible {
    /// The anchor's index in the list the reload replaced.
    public var from: Int
    /// The index of the same item in the new list; `nil` when the reloaded page no longer holds
    /// it (it was removed from the data, or moved farther than the page).
    public var to: Int?

    /// Creates a move from index `from` of the older list to index `to` of the newer one.
    public init(from: Int, to: Int?) {
        self.from = from
        self.to = to
    }

    /// `from -> to`, e.g. `5000 -> 3`, or `5000 -> gone`.
    public var description: String { "\(from) -> \(to.map(String.init) ?? "gone")" }
}
