import CHeapStats
import FeedBenchKit
import Glibc

func emit(_ key: String, _ value: Double) {
    print("\(key)\t\(value)")
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// Runs `body` with allocations counted (mallocs pass) and returns the count, or -1.
func countingMallocs(_ body: () async -> Void) async -> Double {
    heap_stats_start_counting()
    await body()
    return Double(heap_stats_stop_counting())
}

/// Every scenario of one pass. Its methods are nonisolated, so that they run on the global
/// executor as a benchmark would, not on the main actor (a hop per call would be measured).
struct BenchRunner: Sendable {
    let pass: String
    let quick: Bool

    func run() async {
        await appendScenario(FeedItem.self, lengths: lengths)
        await deliveryScenario(FeedItem.self)
        await cancelScenario()
        await manyFeedsScenario()
        await longFeedScenario()
        // Scenarios 1 and 2 again with posts, after the rest, so that the figures above are
        // taken exactly as they were before posts were added.
        await appendScenario(PostItem.self, lengths: [1_000, 100_000])
        await deliveryScenario(PostItem.self)
    }

    var lengths: [Int] { quick ? [1_000, 100_000] : [1_000, 100_000, 1_000_000] }

    /// Pages appended per round at `length`: a 10% window for short feeds, at most 500 pages.
    func pagesPerRound(_ length: Int) -> Int { max(5, min(length / 200, 500)) }
    func rounds<Item: BenchItem>(_ length: Int, _: Item.Type) -> Int {
        if quick { return 3 }
        if length <= 1_000 { return 201 }
        // At 100k posts the seed and Combine ports copy 200k strings a page (a retain each, and
        // a release each when the old list goes: milliseconds a page), so fewer rounds.
        if length <= 100_000 { return Item.self == FeedItem.self ? 21 : 5 }
        return 5
    }

    /// The start of a key: the scenario alone for `FeedItem` (the keys the table has always
    /// read), the scenario and the item's name for any other item (`append.post`).
    func keyPrefix<Item: BenchItem>(_ scenario: String, _: Item.Type) -> String {
        Item.self == FeedItem.self ? scenario : "\(scenario).\(Item.benchName)"
    }

    // MARK: Scenario 1: append cost per page

    func appendScenario<Item: BenchItem>(_ itemType: Item.Type, lengths: [Int]) async {
        let prefix = keyPrefix("append", itemType)
        for length in lengths {
            let firstPage = makeItems(length, of: itemType)
            var perPage: [Contender: [Double]] = [:]
            let pages = pagesPerRound(length)
            for round in 0..<rounds(length, itemType) {
                let order = Contender.allCases.rotated(by: round)
                for contender in order {
                    let harness = await makeAppendHarness(contender, firstPage: firstPage)
                    await harness.appendPage() // warm: the first page after setup grows buffers
                    await harness.appendPage()
                    switch pass {
                    case "mallocs":
                        let count = await countingMallocs {
                            for _ in 0..<pages { await harness.appendPage() }
                        }
                        perPage[contender, default: []].append(count / Double(pages))
                    default:
                        let start = ContinuousClock.now
                        for _ in 0..<pages { await harness.appendPage() }
                        let duration = ContinuousClock.now - start
                        perPage[contender, default: []].append(duration.seconds * 1e9 / Double(pages))
                    }
                    precondition(harness.receivedCount == length + (pages + 2) * benchPageSize,
                                 "\(contender) delivered \(harness.receivedCount) items")
                }
            }
            let unit = pass == "mallocs" ? "mallocs_per_page" : "ns_per_page"
            for contender in Contender.allCases {
                emit("\(prefix).\(contender).\(length).\(unit)", median(perPage[contender] ?? []))
            }
        }
    }

    // MARK: Scenario 2: pages delivered end to end

    func deliveryScenario<Item: BenchItem>(_ itemType: Item.Type) async {
        let prefix = keyPrefix("deliver", itemType)
        let pages = quick ? 200 : 1_000
        for subscribers in [1, 100] {
            var rates: [Contender: [Double]] = [:]
            var deliveries: [Contender: [Double]] = [:]
            var mallocs: [Contender: [Double]] = [:]
            for round in 0..<(quick ? 1 : 5) {
                for contender in Contender.allCases.rotated(by: round) {
                    var result: DeliveryResult?
                    let count = await countingMallocs {
                        result = await runDelivery(contender, of: itemType, pages: pages, subscribers: subscribers)
                    }
                    guard let result else { continue }
                    rates[contender, default: []].append(result.pagesPerSecond)
                    deliveries[contender, default: []].append(Double(result.deliveries))
                    mallocs[contender, default: []].append(count / Double(pages))
                }
            }
            for contender in Contender.allCases where rates[contender] != nil {
                let key = "\(prefix).\(contender).\(subscribers)"
                if pass == "mallocs" {
                    emit("\(key).mallocs_per_page", median(mallocs[contender]!))
                } else {
                    emit("\(key).pages_per_s", median(rates[contender]!))
                    emit("\(key).deliveries_per_page", median(deliveries[contender]!) / Double(pages * subscribers))
                }
            }
        }
    }

    // MARK: Scenario 3: refresh cancelling an in-flight load-more

    func cancelScenario() async {
        let iterations = quick ? 50 : 2_000
        var latencies: [Contender: [Double]] = [:]
        var mallocs: [Contender: [Double]] = [:]
        var harnesses: [Contender: any CancelHarness] = [:]
        for contender in Contender.allCases { harnesses[contender] = await makeCancelHarness(contender) }
        for round in 0..<10 {
            for contender in Contender.allCases.rotated(by: round) {
                let harness = harnesses[contender]!
                for _ in 0..<iterations / 10 {
                    await harness.startLoadMore()
                    var latency = Duration.zero
                    let count = await countingMallocs { latency = await harness.refreshUntilLoadMoreEnds() }
                    await harness.settle()
                    latencies[contender, default: []].append(latency.seconds * 1e9)
                    mallocs[contender, default: []].append(count)
                }
            }
        }
        for contender in Contender.allCases {
            if pass == "mallocs" {
                emit("cancel.\(contender).mallocs", median(mallocs[contender]!))
            } else {
                emit("cancel.\(contender).ns", median(latencies[contender]!))
            }
        }
    }

    // MARK: Scenario 4: 10,000 feeds in one process

    func residentBytes(_ field: String) -> Double {
        guard let file = fopen("/proc/self/status", "r") else { return .nan }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, file) != nil {
            let text = lineText(line)
            if text.hasPrefix(field + ":") {
                let digits = text.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
                return (Double(digits.map(String.init) ?? "") ?? .nan) * 1024
            }
        }
        return .nan
    }

    /// Resets the peak resident size to the current one (Linux: `echo 5 > /proc/self/clear_refs`).
    func resetPeakResident() {
        guard let file = fopen("/proc/self/clear_refs", "w") else { return }
        fputs("5", file)
        fclose(file)
    }

    func manyFeedsScenario() async {
        let count = quick ? 1_000 : 10_000
        var seconds: [Contender: [Double]] = [:]
        for round in 0..<(pass == "time" && !quick ? 3 : 1) {
            for contender in Contender.allCases.rotated(by: round) {
                let heapBefore = Double(heap_stats_bytes_in_use())
                let residentBefore = residentBytes("VmRSS")
                resetPeakResident()
                var feeds: [KeptAlive] = []
                let start = ContinuousClock.now
                let mallocCount = await countingMallocs {
                    feeds = await runManyFeeds(contender, count: count, morePages: 5)
                }
                seconds[contender, default: []].append((ContinuousClock.now - start).seconds)
                switch pass {
                case "memory":
                    emit("many.\(contender).peak_rss_growth_mib", (residentBytes("VmHWM") - residentBefore) / 1_048_576)
                    emit("many.\(contender).bytes_per_feed", (Double(heap_stats_bytes_in_use()) - heapBefore) / Double(count))
                case "mallocs":
                    emit("many.\(contender).mallocs_per_feed", mallocCount / Double(count))
                default:
                    break
                }
                withExtendedLifetime(feeds) {}
                feeds = []
            }
        }
        if pass == "time" {
            for contender in Contender.allCases { emit("many.\(contender).seconds", median(seconds[contender]!)) }
        }

        for contender in Contender.allCases {
            let heapBefore = Double(heap_stats_bytes_in_use())
            var idle: [AnyObject] = []
            let mallocCount = await countingMallocs { idle = makeIdleFeeds(contender, count: count) }
            let bytes = (Double(heap_stats_bytes_in_use()) - heapBefore) / Double(count)
            withExtendedLifetime(idle) {}
            idle = []
            if pass == "memory" { emit("idle.\(contender).bytes", bytes) }
            if pass == "mallocs" { emit("idle.\(contender).mallocs", mallocCount / Double(count)) }
        }
    }

    // MARK: Scenario 5: a feed of a million items against a plain array

    func longFeedScenario() async {
        guard pass == "memory" else { return }
        let count = quick ? 100_000 : 1_000_000
        let items = makeItems(count, of: FeedItem.self)
        var before = Double(heap_stats_bytes_in_use())
        var array: [FeedItem]? = items.map { $0 } // a copy, exactly sized
        let arrayBytes = Double(heap_stats_bytes_in_use()) - before
        precondition(array!.count == count)
        array = nil
        emit("long.array.bytes", arrayBytes)
        let allButLastPage = Array(items.dropLast(benchPageSize))
        for contender in Contender.allCases {
            before = Double(heap_stats_bytes_in_use())
            let feed = await buildLongFeed(contender, items: items, allButLastPage: allButLastPage)
            emit("long.\(contender).bytes", Double(heap_stats_bytes_in_use()) - before)
            withExtendedLifetime(feed) {}
        }
    }
}

extension Array {
    func rotated(by amount: Int) -> [Element] {
        guard !isEmpty else { return self }
        let shift = amount % count
        return Array(self[shift...] + self[..<shift])
    }
}
