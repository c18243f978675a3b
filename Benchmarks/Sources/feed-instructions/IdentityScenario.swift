import FeedBenchKit

/// The duplicate filter's cost at 100k (issue 24): pages of 20 `Identifiable` posts appended to
/// a feed of 100,000, duplicates dropped by id against kept (`.keep`), side by side (the 1k
/// pair is page.posts-ids.engine and page.posts-keep.engine).
let identityScenarios: [InstructionScenario] = [
    InstructionScenario(
        name: "page.posts-ids.engine.100k", iterations: 200,
        summary: "page of 20 Identifiable posts at 100k, duplicates dropped by id, 1 subscriber"
    ) { await identifiedPages(firstPage: 100_000, pages: $0) },
    InstructionScenario(
        name: "page.posts-keep.engine.100k", iterations: 200,
        summary: "the same with duplicates: .keep (no ids kept)"
    ) { await identifiedPages(firstPage: 100_000, pages: $0, configuration: keepingDuplicates) },
]
