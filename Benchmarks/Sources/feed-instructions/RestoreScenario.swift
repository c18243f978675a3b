import AsyncPaging
import FeedBenchKit

// Export and restore at full scale (issue 24), side by side with loading the same list: 100,000
// `Identifiable` posts in 5,000 pages of 20, with a bound of the whole feed so that the state
// holds the pages one by one (as `feed-restore` does, in wall clock). Each scenario first runs
// its operation once on a feed of 1,000 posts (uncounted), so that what a process pays once
// (type look-ups) is not counted.

/// The posts of the restore scenarios.
let restoreItemCount = 100_000

/// A bound of the whole feed: nothing is dropped, but the controller keeps a record per page.
func restoreConfiguration(items: Int) -> FeedConfiguration {
    do { return try FeedConfiguration(loadsInitialPage: false, maximumItems: items) } catch { fatalError("valid: \(error)") }
}

/// A feed of `items` posts loaded page by page: a refresh, then load-mores to the end.
func loadedFeed(items: Int) async -> FeedController<IdentifiedPost, Int> {
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: benchPageSize, pageCount: items / benchPageSize - 1)
    return await loadFeed(source, items: items)
}

func loadFeed(_ source: PrebuiltSource<IdentifiedPost>, items: Int) async -> FeedController<IdentifiedPost, Int> {
    let controller = FeedController<IdentifiedPost, Int>(source: source, configuration: restoreConfiguration(items: items))
    await controller.refresh()
    for _ in 1..<items / benchPageSize { await controller.loadMore() }
    precondition(controller.currentSnapshot.count == items)
    return controller
}

/// The state of a loaded feed, its anchor in the middle.
func exportedState(of controller: FeedController<IdentifiedPost, Int>, items: Int) async -> FeedState<IdentifiedPost, Int> {
    guard let state = try? await controller.exportState(anchorIndex: items / 2) else { fatalError("export failed") }
    return state
}

/// A controller restored from `state` (no refresh), checked.
func restoredFeed(_ state: consuming FeedState<IdentifiedPost, Int>, items: Int) -> FeedController<IdentifiedPost, Int> {
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: benchPageSize, pageCount: 1)
    return FeedController(
        source: source, configuration: restoreConfiguration(items: items), restoring: state, restorePolicy: .never)
}

/// Loads, exports and restores a small feed: the process's first-use costs, uncounted.
func warmUpRestore() async {
    let small = await loadedFeed(items: 1_000)
    let state = await exportedState(of: small, items: 1_000)
    let restored = restoredFeed(state, items: 1_000)
    precondition(restored.currentSnapshot.count == 1_000)
}

let restoreScenarios: [InstructionScenario] = [
    InstructionScenario(
        name: "restore.posts-ids.100k.load", iterations: 1,
        summary: "loading 100,000 Identifiable posts page by page (5,000 pages of 20): what export and restore are compared with"
    ) { _ in
        await warmUpRestore()
        let source = PrebuiltSource<IdentifiedPost>(
            firstPageCount: benchPageSize, pageCount: restoreItemCount / benchPageSize - 1)
        var controller: FeedController<IdentifiedPost, Int>?
        await measured { controller = await loadFeed(source, items: restoreItemCount) }
        withExtendedLifetime(controller) {}
    },
    InstructionScenario(
        name: "restore.posts-ids.100k.export", iterations: 1,
        summary: "exportState(anchorIndex:) of that feed (5,000 pages)"
    ) { _ in
        await warmUpRestore()
        let controller = await loadedFeed(items: restoreItemCount)
        var state: FeedState<IdentifiedPost, Int>?
        await measured { state = await exportedState(of: controller, items: restoreItemCount) }
        precondition(state?.itemCount == restoreItemCount)
    },
    InstructionScenario(
        name: "restore.posts-ids.100k", iterations: 1,
        summary: "FeedController(restoring:) from that state, to its first snapshot (no refresh)"
    ) { _ in
        await warmUpRestore()
        let state = await exportedState(of: await loadedFeed(items: restoreItemCount), items: restoreItemCount)
        var restored: FeedController<IdentifiedPost, Int>?
        await measured {
            let controller = restoredFeed(state, items: restoreItemCount)
            precondition(controller.currentSnapshot.count == restoreItemCount)
            restored = controller
        }
        precondition(restored?.restoredAnchorIndex == restoreItemCount / 2)
    },
]

/// Heap of export and restore (glibc bytes in use): the loaded controller, its exported state,
/// and the restored controller with the state given up to it (`consume`) and kept beside it.
func restoreBytesFigures(quick: Bool) async {
    let items = quick ? 10_000 : restoreItemCount
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: benchPageSize, pageCount: items / benchPageSize - 1)
    let base = heapBytes()
    var loaded: FeedController<IdentifiedPost, Int>? = await loadFeed(source, items: items)
    let loadedBytes = heapBytes() - base
    emit("restore-100k.loaded.bytes", loadedBytes)
    let state = await exportedState(of: loaded!, items: items)
    await loaded?.close()
    loaded = nil
    emit("restore-100k.state.bytes", heapBytes() - base)
    var kept: FeedController<IdentifiedPost, Int>? = restoredFeed(state, items: items)
    emit("restore-100k.restored-beside-state.bytes", heapBytes() - base)
    await kept?.close()
    kept = nil
    let restored = restoredFeed(consume state, items: items)
    let restoredBytes = heapBytes() - base
    emit("restore-100k.restored.bytes", restoredBytes)
    emit("restore-100k.restored-over-loaded", restoredBytes / loadedBytes)
    precondition(restored.currentSnapshot.count == items)
    await restored.close()
    // The source's pages were there when `base` was read: they must not go before the end.
    withExtendedLifetime(source) {}
}

/// Heap of a feed of 10,000,000 two-word items with ids against a plain array (the 1M pair is
/// feed-1m.*): the id index at that length, with its growths.
func tenMillionBytesFigures(quick: Bool) async {
    let itemCount = quick ? 1_000_000 : 10_000_000
    var before = heapBytes()
    var array: [FeedItem]? = makeItems(itemCount, of: FeedItem.self)
    let arrayBytes = heapBytes() - before
    array = nil
    emit("feed-10m.array.bytes", arrayBytes)
    let source = PrebuiltSource<FeedItem>(firstPageCount: benchPageSize, pageCount: itemCount / benchPageSize - 1)
    before = heapBytes()
    let controller = FeedController(source: source, configuration: withoutInitialLoad, id: { $0.id })
    await controller.refresh()
    for _ in 1..<itemCount / benchPageSize { await controller.loadMore() }
    precondition(controller.currentSnapshot.count == itemCount)
    emit("feed-10m.engine-ids.bytes", heapBytes() - before)
    emit("feed-10m.engine-ids.ratio", (heapBytes() - before) / arrayBytes)
    withExtendedLifetime(array) {}
    await controller.close()
}
