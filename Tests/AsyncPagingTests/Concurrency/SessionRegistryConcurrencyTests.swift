import AsyncPaging
import AsyncPagingTesting
import Testing

extension Concurrency {
    /// Issue 23: a registry with a cap, a quota and a store, used by many tasks at once on the
    /// real clock. After quiescence: never over the cap or a quota, no load of a held session
    /// ended by an eviction (only by a `remove` of its key), no version conflict (one instance), and every saved list is the
    /// list its pages make (no page lost, repeated or out of order).
    @Suite("Sessions: many tasks on one registry", .serialized)
    struct SessionRegistryConcurrencyTests {
        typealias Registry = FeedSessionRegistry<Int, Post, Int>

        @Test("sessions opened, used, loaded, refreshed and removed at once keep the registry's rules")
        func manyTasks() async throws {
            let store = InMemoryFeedSessionStore<Int, Post, Int>()
            let cap = 12
            let quota = 6
            let registry = try Registry(
                clock: ContinuousClock(), idleTimeout: .seconds(60), maximumCount: cap,
                maximumSessionsPerOwner: quota, owner: { "owner \($0 % 3)" }, store: store
            ) { _, state in
                let source = PostSource { request in
                    let index = request.cursor ?? 0
                    return .items(posts(index * 15..<(index + 1) * 15), next: index + 1, latency: .microseconds(200))
                }
                return FeedController(
                    source: source, clock: ContinuousClock(), configuration: configuration(), restoring: state,
                    restorePolicy: .never, id: \.id)
            }
            let problems = Locked<[String]>([])
            let refused = Locked(0)
            // Removals per key, begun and ended: remove(_:) closes a session even in use, so a
            // held session's load may end by close only if a removal of its key was under way
            // when the use began or began during it.
            let removalsBegun = Locked([Int](repeating: 0, count: 30))
            let removalsEnded = Locked([Int](repeating: 0, count: 30))
            let detector = StallDetector(name: "session registry")
            let finished = await detector.watch { () -> Bool in
                await withTaskGroup(of: Void.self) { group in
                    for worker in 0..<8 {
                        group.addTask {
                            var random = SplitMix(seed: UInt64(worker) &+ 1)
                            for _ in 0..<120 {
                                detector.progress()
                                let key = Int(random.next() % 30)
                                let operation = random.next() % 10
                                if operation == 0 {
                                    removalsBegun.withLock { $0[key] += 1 }
                                    await registry.remove(key)
                                    removalsEnded.withLock { $0[key] += 1 }
                                    continue
                                }
                                let endedBefore = removalsEnded.withLock { $0[key] }
                                do {
                                    let result = try await registry.withSession(for: key) { feed -> LoadResult in
                                        _ = await feed.waitForFirstPage()
                                        return operation == 1 ? await feed.refresh() : await feed.loadMore()
                                    }
                                    // Explained by a removal begun by now that had not ended
                                    // when this use began.
                                    if case .cancelled(.closed) = result.outcome,
                                       removalsBegun.withLock({ $0[key] }) == endedBefore {
                                        problems.withLock { $0.append("session \(key): a held session's load ended by close") }
                                    }
                                } catch FeedSessionRegistryError.allSessionsInUse, FeedSessionRegistryError.ownerQuotaExceeded {
                                    refused.withLock { $0 += 1 }
                                } catch {
                                    problems.withLock { $0.append("session \(key): \(error)") }
                                }
                                let count = await registry.count
                                if count > cap { problems.withLock { $0.append("\(count) sessions over the cap") } }
                            }
                        }
                    }
                }
                return true
            }
            #expect(finished == true)
            for owner in 0..<3 {
                #expect(await registry.sessionCount(ofOwner: "owner \(owner)") <= quota)
            }
            await registry.closeAll()
            for key in 0..<30 {
                guard let saved = try await store.load(key) else { continue }
                let items = saved.state.items
                if items != posts(0..<items.count) || items.count % 15 != 0 {
                    problems.withLock { $0.append("session \(key): saved \(items.map(\.id).prefix(40))…") }
                }
            }
            let found = problems.withLock { $0 }
            #expect(found.isEmpty, "\(found.prefix(20).joined(separator: "\n"))")
            print("session registry: \(refused.withLock { $0 }) sessions refused (cap or quota)")
        }
    }
}

/// A small seeded generator for the workers' choices.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
