/// What changed between two versions of a feed's list.
///
/// Keeping a scroll position: items prepended at the start shift every older index up by the
/// prepended count, and items dropped at the start (a bounded feed) shift them down. A UI that
/// shows row `i` of the older list shows the same item at `i + change.indexShift` of the newer
/// one; see ``indexShift``.
public enum FeedChange: Sendable, Hashable, CustomStringConvertible {
    /// The first, empty list of a new controller.
    case initial
    /// The whole list was replaced (a refresh).
    case replaced
    /// Items were appended at these indices (a load-more); everything before is unchanged.
    case appended(Range<Int>)
    /// Items were inserted at these indices, always starting at 0 (a load-previous); the older
    /// items follow, unchanged, each `range.count` places further on.
    case prepended(Range<Int>)
    /// Items were added at both ends (only ``FeedSnapshot/change(since:)`` across skipped
    /// versions says this): `prepended` (from 0) and `appended` are indices of the newer list.
    case extended(prepended: Range<Int>, appended: Range<Int>)
    /// Items were removed at one end and maybe added at either, within one generation: a
    /// bounded feed (``FeedConfiguration/maximumItems``) dropped whole pages at the end far
    /// from a load. See ``FeedEndsChange`` for how to read it.
    case ends(FeedEndsChange)
    /// The items at these indices were replaced by an edit (`update(_:)`);
    /// the list's count and every other item are unchanged. Indices ascend.
    case updated([Int])
    /// The items at these indices of the older list were removed by an edit
    /// (`remove(ids:)`); the others follow in order. Indices ascend.
    case removed([Int])
    /// The whole list was replaced by a reload around the row on screen
    /// (``FeedController/invalidate()``, or an invalidation the controller follows): a new
    /// generation, like ``replaced``, that says where the anchor's item went. Keep that item
    /// where it was on screen: show row ``FeedAnchorMove/to`` where row ``FeedAnchorMove/from``
    /// of the older list was.
    case reloaded(FeedAnchorMove)

    /// How many items were inserted before the older list's first item. 0 unless items were
    /// prepended. With a bounded feed, use ``indexShift``, which also counts items dropped at
    /// the start.
    public var prependedCount: Int {
        switch self {
        case .prepended(let range), .extended(let range, _): range.count
        case .ends(let change): change.insertedAtStart
        default: 0
        }
    }

    /// Add it to an older index to find the same item in the newer list (an item that is still
    /// there): the items inserted at the start minus the items dropped there. 0 for
    /// `.replaced` and `.initial`, whose older indices mean nothing in the newer list, and for
    /// `.updated` (nothing moves) and `.removed` (a row moves up by the number of removed
    /// indices below it).
    public var indexShift: Int {
        switch self {
        case .prepended(let range), .extended(let range, _): range.count
        case .ends(let change): change.indexShift
        default: 0
        }
    }

    /// The change in a compact form for logs, e.g. `appended(15..<30)`.
    public var description: String {
        switch self {
        case .initial: "initial"
        case .replaced: "replaced"
        case .appended(let range): "appended(\(range.lowerBound)..<\(range.upperBound))"
        case .prepended(let range): "prepended(\(range.lowerBound)..<\(range.upperBound))"
        case .extended(let prepended, let appended):
            "extended(prepended: \(prepended.lowerBound)..<\(prepended.upperBound), appended: \(appended.lowerBound)..<\(appended.upperBound))"
        case .ends(let change): "ends(\(change))"
        case .updated(let indices): "updated(\(indices))"
        case .removed(let indices): "removed(\(indices))"
        case .reloaded(let move): "reloaded(\(move))"
        }
    }
}
