#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reports a bad command line the way command-line tools do: on stderr, exit code 2.
func exitWithUsageError(_ error: ArgumentError) -> Never {
    Terminal.writeError("feed-demo: error: \(error.message)\nRun 'feed-demo --help' to see every flag.\n")
    exit(2)
}

let options: DemoOptions
do {
    options = try ArgumentParser.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    exitWithUsageError(error)
}

if options.showHelp {
    print(ArgumentParser.helpText)
    exit(0)
}

let mode: DemoOptions.Mode = options.forceScript || !Terminal.isInteractive ? .script : .interactive
let resolved: ResolvedOptions
do {
    resolved = try options.resolved(for: mode)
} catch {
    exitWithUsageError(error)
}

switch mode {
case _ where resolved.listsAll:
    exit(await HTTPSequenceListing(options: resolved).run())
case .script where resolved.http != nil:
    exit(await HTTPListing(options: resolved).run())
case .script:
    let watchdog = Task.detached {
        try await ContinuousClock().sleep(for: .seconds(30))
        Terminal.writeError("feed-demo: the scenario did not finish within 30 s\n")
        exit(1)
    }
    let passed = await ScriptScenario(options: resolved).run()
    watchdog.cancel()
    exit(passed ? 0 : 1)
case .interactive:
    exit(await InteractiveApp(options: resolved).run())
}
