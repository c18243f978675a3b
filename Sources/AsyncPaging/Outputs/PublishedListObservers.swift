/// The observers that see every list a controller publishes, none skipped: what the test kit's
/// `PublishedListLog` is built on (package access; not an output of the engine).
///
/// ``FeedController/snapshots`` and ``FeedController/updates`` keep only the newest list, so a
/// reader that is not scheduled between two publishes never sees the first: a check that a
/// page was never applied, made over them, can pass without having looked. An observer here is
/// called on the controller's actor, in the turn that publishes the list, right after the
/// broadcaster has it (not under any lock), for every version in order.
///
/// Nil on a controller until the first observer registers, so a controller without one pays a
/// word and a test against nil per published list. Measured with callgrind against the commit
/// before it, side by side (instructions.sh, 2026-11-26): a page of the two-word engine at 100k
/// 19,411 → 19,419 instructions, an edit at 1M 30,622 → 30,629, allocations unchanged, and an
/// idle controller's heap unchanged at 1,676.5 bytes (the word fits in its allocation's slack).
@usableFromInline package final class _PublishedListObservers<Item: Sendable>: Sendable {
    @usableFromInline let observers: [@Sendable (FeedSnapshot<Item>) -> Void]

    init(_ observers: [@Sendable (FeedSnapshot<Item>) -> Void]) {
        self.observers = observers
    }

    /// Calls every observer with `snapshot`, in the order they registered.
    @usableFromInline func record(_ snapshot: FeedSnapshot<Item>) {
        for observer in observers { observer(snapshot) }
    }
}

extension FeedController {
    /// Calls `observer` with the list published last, then registers it to be called with
    /// every list this controller publishes from now on, in version order, on the actor. For
    /// the test kit (`PublishedListLog`).
    package func _observeEveryPublishedList(_ observer: @escaping @Sendable (FeedSnapshot<Item>) -> Void) {
        observer(broadcaster.latestSnapshot)
        _listObservers = _PublishedListObservers((_listObservers?.observers ?? []) + [observer])
    }
}
