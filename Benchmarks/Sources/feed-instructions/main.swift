import CCallgrind
import Glibc

// feed-instructions: the instruction-count suite and the figures beside it. instructions.sh
// runs it; see Benchmarks/README.md.
//
//   feed-instructions list          every scenario: name, iterations, what one iteration is
//   feed-instructions run NAME      runs scenario NAME; under callgrind (instructions.sh), only
//                                   its measured loop is counted. FEED_ITERATIONS=n overrides the
//                                   scenario's count (for profiling: two counts tell a cost paid
//                                   once per process from one paid per iteration)
//   feed-instructions bytes         heap figures (run with MALLOC_ARENA_MAX=1 MALLOC_MMAP_MAX_=0)
//   feed-instructions growth        wall clock: slowest ÷ median page growing to 1M items
//   feed-instructions sessions      wall clock: new sessions per second below and at a
//                                   FeedSessionRegistry's cap, 1k/10k/100k (issue 23)

let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")

switch arguments.first {
case "list":
    for scenario in allScenarios { print("\(scenario.name)\t\(scenario.iterations)\t\(scenario.summary)") }
case "run":
    guard arguments.count >= 2, let scenario = allScenarios.first(where: { $0.name == arguments[1] }) else {
        print("feed-instructions run: unknown scenario \(arguments.dropFirst().first ?? "(none)")")
        exit(2)
    }
    let iterations = getenv("FEED_ITERATIONS").flatMap { Int(String(cString: $0)) } ?? scenario.iterations
    if scenario.name.hasPrefix("model.") || scenario.name.hasPrefix("controller.") {
        await scenario.run(iterations) // these run on the main actor, as a screen's model does
    } else {
        // Off the main actor, as a benchmark of the engine would run (a hop per call otherwise).
        await Task.detached { await scenario.run(iterations) }.value
    }
    print("\(scenario.name)\t\(scenario.iterations)")
case "bytes":
    await Task.detached { await bytesFigures(quick: quick) }.value
case "growth":
    await Task.detached { await growthFigures(quick: quick) }.value
case "sessions":
    await Task.detached { await sessionRateFigures(quick: quick) }.value
default:
    print("usage: feed-instructions list | run NAME | bytes [--quick] | growth [--quick] | sessions [--quick]")
    exit(2)
}
