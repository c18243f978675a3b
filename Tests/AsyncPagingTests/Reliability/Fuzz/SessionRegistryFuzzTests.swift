import AsyncPaging
import AsyncPagingTesting
import Testing

/// Issue 23, bug 5: no number that `FeedSessionRegistry` takes traps or hangs — when the
/// registry is made, when sessions are opened up to and beyond the limits, or when its idle
/// timer reaches a real clock.
@Suite("Fuzz: session registry numbers never trap", .serialized) // one fuzzing child at a time
struct SessionRegistryFuzzTests {
    @Test("FeedSessionRegistry: any idle timeout, maximum count and quota, on the real clock")
    func registryNumbers() async {
        FuzzHarness.announce(SessionRegistryFuzz.self)
        let result = await #expect(processExitsWith: .success) { await FuzzHarness.runChild(SessionRegistryFuzz.self) }
        FuzzHarness.report(SessionRegistryFuzz.self, result)
    }
}

enum SessionRegistryFuzz: FuzzCase {
    struct Input: CustomStringConvertible {
        var idleTimeout: Duration?
        var maximumCount: Int?
        var maximumSessionsPerOwner: Int?
        var description: String {
            "FeedSessionRegistry(idleTimeout: \(String(describing: idleTimeout)), maximumCount: "
                + "\(String(describing: maximumCount)), maximumSessionsPerOwner: \(String(describing: maximumSessionsPerOwner)))"
        }
    }

    static let name = "FeedSessionRegistry"
    static let defaultInputCount = 150

    static func input(_ random: inout FuzzRandom) -> Input {
        Input(
            idleTimeout: random.bool() ? random.duration() : nil,
            maximumCount: random.bool() ? random.integer() : nil,
            maximumSessionsPerOwner: random.bool() ? random.integer() : nil)
    }

    static func violation(_ input: Input) async -> String? {
        let registry: FeedSessionRegistry<Int, Int, Int>
        do {
            registry = try FeedSessionRegistry(
                clock: ContinuousClock(), idleTimeout: input.idleTimeout, maximumCount: input.maximumCount,
                maximumSessionsPerOwner: input.maximumSessionsPerOwner, owner: { "owner \($0 % 2)" }
            ) { _, state in
                FeedController(
                    source: ScriptedPageSource<Int, Int>(), clock: ContinuousClock(),
                    configuration: (try? FeedConfiguration(loadsInitialPage: false)) ?? .default, restoring: state)
            }
        } catch {
            return nil // rejected with a typed error: fine
        }
        if let timeout = registry.idleTimeout, timeout <= .zero { return "accepted idle timeout \(timeout)" }
        if let count = registry.maximumCount, count < 1 { return "accepted maximum count \(count)" }
        if let quota = registry.maximumSessionsPerOwner, quota < 1 { return "accepted quota \(quota)" }
        for key in 0..<6 {
            do {
                _ = try await registry.openController(for: key)
            } catch .ownerQuotaExceeded, .allSessionsInUse {
                continue
            } catch {
                return "session \(key): \(error)"
            }
        }
        let count = await registry.count
        if let maximum = registry.maximumCount, count > maximum { return "\(count) sessions over the cap \(maximum)" }
        if let quota = registry.maximumSessionsPerOwner {
            for owner in ["owner 0", "owner 1"] where await registry.sessionCount(ofOwner: owner) > quota {
                return "\(owner) over the quota \(quota)"
            }
        }
        try? await ContinuousClock().sleep(for: .milliseconds(1)) // the idle timer is asleep (or fired)
        await registry.closeAll()
        return nil
    }
}
