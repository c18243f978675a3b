import AsyncPaging

extension FeedModel {
    /// The model's list as a screen shows it: `transformer` brought up to the model's
    /// ``items``, ``status`` and ``loadStates`` (see <doc:AsyncPaging/ShapingRows>).
    ///
    /// Read it where the view reads the list: it observes the same properties, and a call with
    /// the list and load states the transformer already has costs nothing but the lookup (its
    /// change is then ``AsyncPaging/FeedRowsChange/unchanged``). Keep one transformer per screen
    /// beside the model. Report appearing rows of items with ``rowAppeared(_:)`` (by item, so
    /// separator rows do not shift the indices the prefetch reads).
    ///
    /// ```swift
    /// List(Array(model.rows(transformer)), id: \.id) { row in RowView(row) }
    /// ```
    @inlinable public func rows<Row>(_ transformer: FeedRowsTransformer<Item, Row>) -> FeedRows<Row> {
        transformer.apply(FeedUpdate(snapshot: items, status: status, loadStates: loadStates))
    }
}
