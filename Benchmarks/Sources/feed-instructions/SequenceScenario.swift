import AsyncPaging
import CHeapStats
import FeedBenchKit

// Paging a source to its end (issue 26): the item sequence against a hand-written loop over the
// same in-process source, per item; and the heap while a million items stream through.

/// The page size of the sequence figures: pages of 100, as the target says.
let sequencePageSize = 100

/// An in-process source of `total` two-word items in pages of `sequencePageSize`: page at
/// cursor `n` (the index of its first item; `nil` for 0) is built when it is asked for, as a
/// source that decodes a response builds it, and names the next page until the end.
struct CountingSource: PageSource {
    let total: Int

    func page(for request: PageRequest<Int>) async throws -> Page<FeedItem, Int> {
        let start = request.cursor ?? 0
        let end = min(start + sequencePageSize, total)
        return Page(items: (start..<end).map { FeedItem(benchIndex: $0) }, next: end < total ? end : nil)
    }
}

/// The sequences' configuration for the figures: pages of 100, duplicates kept (no id set).
let sequenceConfiguration: FeedConfiguration = {
    do { return try FeedConfiguration(pageSize: sequencePageSize, duplicates: .keep) } catch { fatalError("valid: \(error)") }
}()

/// The same with duplicates dropped by id.
let sequenceDroppingConfiguration: FeedConfiguration = {
    do { return try FeedConfiguration(pageSize: sequencePageSize) } catch { fatalError("valid: \(error)") }
}()

/// What the loops compute from each item, so that neither can be optimized away.
nonisolated(unsafe) var sequenceSink = 0 // written by one task at a time: the scenario's own

/// The hand-written loop: fetch, read the items, follow `next`.
func handWrittenLoop(_ source: CountingSource) async -> Int {
    let clock = ContinuousClock()
    var sum = 0
    var cursor: Int?
    var isFirst = true
    repeat {
        let request = PageRequest(
            cursor: cursor, side: isFirst ? .refresh : .loadMore, pageSize: sequencePageSize, clock: clock)
        isFirst = false
        guard let page = try? await source.page(for: request) else { break }
        for item in page.items { sum &+= item.score }
        cursor = page.next
    } while cursor != nil
    return sum
}

/// The hand-written loop over the source as `any PageSource`, as a tool that keeps its source
/// as an existential writes it (the compiler specializes it here all the same).
func handWrittenLoop(any source: any PageSource<FeedItem, Int>) async -> Int {
    let clock = ContinuousClock()
    var sum = 0
    var cursor: Int?
    var isFirst = true
    repeat {
        let request = PageRequest(
            cursor: cursor, side: isFirst ? .refresh : .loadMore, pageSize: sequencePageSize, clock: clock)
        isFirst = false
        guard let page = try? await source.page(for: request) else { break }
        for item in page.items { sum &+= item.score }
        cursor = page.next
    } while cursor != nil
    return sum
}

/// The same through ``ItemSequence``.
func itemSequenceLoop(_ source: CountingSource) async -> Int {
    var sum = 0
    do {
        for try await item in source.items(configuration: sequenceConfiguration) { sum &+= item.score }
    } catch {
        fatalError("the counting source never fails: \(error)")
    }
    return sum
}

/// The same through ``PageSequence``, reading the items of each page.
func pageSequenceLoop(_ source: CountingSource) async -> Int {
    var sum = 0
    do {
        for try await page in source.pages(configuration: sequenceConfiguration) {
            for item in page.items { sum &+= item.score }
        }
    } catch {
        fatalError("the counting source never fails: \(error)")
    }
    return sum
}

let sequenceScenarios: [InstructionScenario] = [
    InstructionScenario(
        name: "sequence.items.two-word", iterations: 100_000,
        summary: "one item of source.items(...): 100,000 two-word items in pages of 100 from an in-process source"
    ) { items in await measured { sequenceSink &+= await itemSequenceLoop(CountingSource(total: items)) } },
    InstructionScenario(
        name: "sequence.pages.two-word", iterations: 100_000,
        summary: "one item read through source.pages(...), the same items"
    ) { items in await measured { sequenceSink &+= await pageSequenceLoop(CountingSource(total: items)) } },
    InstructionScenario(
        name: "sequence.hand-loop.two-word", iterations: 100_000,
        summary: "one item of a hand-written loop over the same source (fetch, read, follow next): the baseline"
    ) { items in await measured { sequenceSink &+= await handWrittenLoop(CountingSource(total: items)) } },
    InstructionScenario(
        name: "sequence.items.two-word.1m", iterations: 1_000_000,
        summary: "one item of source.items(...): 1,000,000 two-word items in pages of 100 (the issue's length)"
    ) { items in await measured { sequenceSink &+= await itemSequenceLoop(CountingSource(total: items)) } },
    InstructionScenario(
        name: "sequence.pages.two-word.1m", iterations: 1_000_000,
        summary: "one item read through source.pages(...), 1,000,000 items"
    ) { items in await measured { sequenceSink &+= await pageSequenceLoop(CountingSource(total: items)) } },
    InstructionScenario(
        name: "sequence.hand-loop.two-word.1m", iterations: 1_000_000,
        summary: "one item of the hand-written loop, 1,000,000 items: the baseline at that length"
    ) { items in await measured { sequenceSink &+= await handWrittenLoop(CountingSource(total: items)) } },
    InstructionScenario(
        name: "sequence.hand-loop-any.two-word", iterations: 100_000,
        summary: "one item of the hand-written loop over the same source as `any PageSource` (no inlining of the source)"
    ) { items in await measured { sequenceSink &+= await handWrittenLoop(any: CountingSource(total: items)) } },
]

/// Heap bytes in use while a million items stream through the item sequence, at 100,000 and at
/// 1,000,000 items read (duplicates kept), and the same with duplicates dropped by id (its id
/// set grows with the items, as documented).
func sequenceBytesFigures(quick: Bool) async {
    let total = quick ? 200_000 : 1_000_000
    for dropsDuplicates in [false, true] {
        let before = heapBytes()
        var at100k = 0.0
        var atEnd = 0.0
        var read = 0
        let source = CountingSource(total: total)
        let items = dropsDuplicates
            ? source.items(configuration: sequenceDroppingConfiguration, id: { $0.id })
            : source.items(configuration: sequenceConfiguration)
        do {
            for try await item in items {
                read += 1
                sequenceSink &+= item.score
                if read == 100_000 { at100k = heapBytes() - before }
                if read == total { atEnd = heapBytes() - before } // the last page still held
            }
        } catch {
            fatalError("the counting source never fails: \(error)")
        }
        precondition(read == total)
        let key = dropsDuplicates ? "sequence.items-ids" : "sequence.items"
        emit("\(key).100k.bytes", at100k)
        emit("\(key).end.bytes", atEnd)
        emit("\(key).growth.ratio", atEnd / at100k)
    }
}
