import Foundation

/// The process's memory, for the memory tests, which run in their own process (exit tests) so
/// that no other test allocates while they measure.
///
/// The main figure is the heap in use, from glibc's `malloc_stats()` (`mallinfo2` is not in the
/// toolchain's `Glibc` module, `malloc_stats` is found with `dlsym` and prints its totals to
/// standard error, which is caught in a file for the call). The resident set size, from
/// `/proc/self/statm`, is printed beside it; it also counts memory the allocator got back and
/// keeps, so it is not what the tests judge by.
enum MemoryUsage {
    /// Whether a sanitizer replaced the allocator (ThreadSanitizer, AddressSanitizer): then
    /// glibc's figures say nothing about the program, and the memory tests do not run.
    static let allocatorIsReplaced: Bool = {
        let process = dlopen(nil, RTLD_NOW)
        return dlsym(process, "__tsan_init") != nil || dlsym(process, "__asan_init") != nil
    }()

    /// Bytes the allocator has handed out and not had back, all arenas and mmapped blocks
    /// included; nil where glibc's `malloc_stats` is not available.
    static var heapInUse: Int? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_stats") else { return nil }
        let mallocStats = unsafeBitCast(symbol, to: (@convention(c) () -> Void).self)
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("asyncpaging-malloc-stats-\(getpid())").path
        let file = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        guard file >= 0 else { return nil }
        defer { unlink(path) }
        let savedStandardError = dup(STDERR_FILENO)
        dup2(file, STDERR_FILENO)
        mallocStats()
        dup2(savedStandardError, STDERR_FILENO)
        close(savedStandardError)
        close(file)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        // The last "in use bytes" line is the total of every arena, mmapped blocks included.
        return text.split(separator: "\n").last { $0.contains("in use bytes") }
            .flatMap { $0.split(separator: "=").last }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Heap in use after a pause of 300 ms; see ``settledResident()``.
    static func settledHeapInUse() async -> Int? {
        try? await ContinuousClock().sleep(for: .milliseconds(300))
        return heapInUse
    }

    /// The resident set size in bytes; nil where `/proc` cannot be read.
    static var resident: Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The resident size after a pause of 300 ms: cancelled tasks free their memory a little
    /// later, on their own threads, and the lifetime test's timers (at most 200 ms) run out.
    static func settledResident() async -> Int? {
        try? await ContinuousClock().sleep(for: .milliseconds(300))
        return resident
    }

    static func megabytes(_ bytes: Int?) -> String {
        guard let bytes else { return "n/a" }
        return String(format: "%.2f MB", Double(bytes) / 1_048_576)
    }
}
