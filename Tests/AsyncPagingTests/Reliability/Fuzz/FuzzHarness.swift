import AsyncPaging
import Foundation
import Testing

// A copy of the UI tests' harness (Tests/AsyncPagingUITests/Fuzz), whose checks may suspend:
// test targets share no code.

/// One value type under fuzzing: how to make a random input, and what must hold for it.
protocol FuzzCase {
    associatedtype Input: CustomStringConvertible
    static var name: String { get }
    /// How many inputs a run tries when `ASYNCPAGING_FUZZ_INPUTS` does not say.
    static var defaultInputCount: Int { get }
    static func input(_ random: inout FuzzRandom) -> Input
    /// What is wrong with the answers to `input`, or nil. A trap or a hang is found by the
    /// harness.
    static func violation(_ input: Input) async -> String?
}

/// Runs a ``FuzzCase`` over seeded inputs in a process of its own (an exit test), so that an
/// input that traps ends that process and not the test run, and names the input.
///
/// The child notes the index of the input it is on in a file named after the parent's pid
/// before trying it, and ends with a note when an answer is wrong or an input hangs (a watchdog
/// thread sees no new input for 10 s). The parent reads the note when the child fails and
/// rebuilds the input from the seed and the index. `ASYNCPAGING_FUZZ_SEED` (default 11) and
/// `ASYNCPAGING_FUZZ_INPUTS` (default: the case's own) pick the inputs.
enum FuzzHarness {
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["ASYNCPAGING_FUZZ_SEED"].flatMap { UInt64($0) } ?? 11
    }

    static func inputCount<Case: FuzzCase>(_: Case.Type) -> Int {
        ProcessInfo.processInfo.environment["ASYNCPAGING_FUZZ_INPUTS"].flatMap { Int($0) } ?? Case.defaultInputCount
    }

    static func notePath(_ name: String, parent: pid_t) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("asyncpaging-fuzz-\(name)-\(parent)").path
    }

    static func input<Case: FuzzCase>(_: Case.Type, index: Int) -> Case.Input {
        var random = FuzzRandom(seed: seed, stream: UInt64(index))
        return Case.input(&random)
    }

    /// The child's side: tries every input; exits 0 when all hold.
    static func runChild<Case: FuzzCase>(_ fuzzCase: Case.Type) async -> Never {
        let path = notePath(Case.name, parent: getppid())
        let file = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        precondition(file >= 0, "cannot write \(path)")
        @Sendable func note(_ text: String) {
            let bytes = Array(text.utf8)
            ftruncate(file, 0)
            _ = bytes.withUnsafeBytes { pwrite(file, $0.baseAddress, bytes.count, 0) }
        }
        let current = Watchdog.start { index in
            note("\(index) HANG")
            _exit(3)
        }
        for index in 0..<inputCount(Case.self) {
            note("\(index)")
            current.set(index)
            let input = self.input(Case.self, index: index)
            if let violation = await Case.violation(input) {
                note("\(index) VIOLATION \(violation)")
                exit(1)
            }
        }
        note("done")
        exit(0)
    }

    /// Prints the seed; call before the exit test.
    static func announce<Case: FuzzCase>(_: Case.Type) {
        print("fuzzing \(Case.name): seed \(seed), \(inputCount(Case.self)) inputs (replay: ASYNCPAGING_FUZZ_SEED=\(seed))")
    }

    /// The parent's side, after the exit test (`result` nil when the child failed): records
    /// which input failed and how.
    static func report<Case: FuzzCase>(
        _: Case.Type, _ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let path = notePath(Case.name, parent: getpid())
        defer { unlink(path) }
        guard result == nil else { return }
        let note = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let parts = note.split(separator: " ", maxSplits: 1)
        guard let index = parts.first.flatMap({ Int($0) }) else {
            Issue.record("\(Case.name): the fuzzing process failed before its first input (note: \(note))", sourceLocation: sourceLocation)
            return
        }
        let how = parts.count > 1 ? String(parts[1]) : "TRAPPED (or crashed)"
        Issue.record("""
            \(Case.name): input \(index) \(how)
            input: \(input(Case.self, index: index))
            replay: ASYNCPAGING_FUZZ_SEED=\(seed) swift test --filter Fuzz
            """, sourceLocation: sourceLocation)
    }
}

/// A thread that calls `onHang` with the current input when it has not changed for 10 s.
final class Watchdog: Sendable {
    private let current = Locked<(index: Int, changes: UInt64)>((-1, 0))

    func set(_ index: Int) {
        current.withLock { $0 = (index, $0.changes &+ 1) }
    }

    static func start(onHang: @escaping @Sendable (Int) -> Void) -> Watchdog {
        let watchdog = Watchdog()
        let thread = Thread {
            let tick = NSCondition()
            var last: UInt64 = .max
            var still = 0
            while true {
                tick.lock()
                _ = tick.wait(until: Date(timeIntervalSinceNow: 0.5)) // nobody signals: a pause
                tick.unlock()
                let (index, changes) = watchdog.current.withLock { $0 }
                if changes == last { still += 1 } else { (last, still) = (changes, 0) }
                if still >= 20 { onHang(index) }
            }
        }
        thread.start()
        return watchdog
    }
}

/// SplitMix64 (Steele, Lea and Flood): the same seed gives the same inputs on every run.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64, stream index: UInt64) {
        state = seed ^ (index &* 0xD1B5_4A32_D192_ED03)
        state = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double that is often an edge case: NaN, ±infinity, ±0, the largest and smallest
    /// magnitudes, or else a random bit pattern or a small number.
    mutating func double() -> Double {
        let edges: [Double] = [
            .nan, .infinity, -.infinity, 0, -0.0, 1, -1, 60, -60, 0.5,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
            -.leastNonzeroMagnitude, .leastNormalMagnitude, 1e300, -1e300, 1e-300,
        ]
        switch next() % 4 {
        case 0: return edges[Int(next() % UInt64(edges.count))]
        case 1: return Double(bitPattern: next())
        default: return Double(Int64(bitPattern: next()) % 2_000) - 500 + Double(next() % 1_000) / 1_000
        }
    }

    /// An integer that is often an edge case.
    mutating func integer() -> Int {
        let edges = [0, 1, -1, 2, Int.max, Int.min, Int.max - 1, Int.min + 1, 1 << 32, -(1 << 32)]
        switch next() % 3 {
        case 0: return edges[Int(next() % UInt64(edges.count))]
        case 1: return Int(truncatingIfNeeded: next())
        default: return Int(next() % 200) - 50
        }
    }

    mutating func bool() -> Bool { next() & 1 == 1 }

    /// A duration that is often an edge case: zero, the extremes of `Duration`, a second, or
    /// else a random one of any size.
    mutating func duration() -> Duration {
        let edges: [Duration] = [
            .zero, .nanoseconds(1), .seconds(1), .seconds(-1), .seconds(Int64.max), .seconds(Int64.min),
            Duration(secondsComponent: Int64.max, attosecondsComponent: 999_999_999_999_999_999),
            .milliseconds(1), .seconds(30), .seconds(86_400 * 365 * 200),
        ]
        switch next() % 3 {
        case 0: return edges[Int(next() % UInt64(edges.count))]
        case 1: return .seconds(Int64(bitPattern: next()))
        default: return .milliseconds(Int64(next() % 100_000))
        }
    }
}
