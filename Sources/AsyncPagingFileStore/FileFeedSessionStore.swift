import AsyncPaging
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``AsyncPaging/FeedSessionStore`` in files: one append-only log per session in a
/// directory, so that sessions survive a restart of the process.
///
/// A session's file holds one JSON line per save: `{"version": 3, "record": { … }}` (the
/// record in ``AsyncPaging/FeedSessionRecord``'s JSON shape). A load-more appends one line —
/// its page, O(page) bytes — and `fsync`s the file; a whole list (a session's first save, a
/// refresh, an edit) replaces the file by writing a new one beside it and renaming it over
/// (atomic). When the log holds more items than the list it started from, the file is
/// rewritten as one line (compaction), so each item is copied a bounded number of times.
///
/// The version check (compare-and-swap) holds across processes on one machine: every read and
/// write takes an exclusive `flock` on the directory's `.lock` file and checks the file's size
/// against what it last read (another process wrote: the file is read again). A save that
/// crashed mid-line leaves a line without its newline: it was never acknowledged, so it is
/// ignored on reading and cut off before the next append.
///
/// It lives in its own module because JSON needs Foundation's coders; the engine imports no
/// Foundation. It blocks its actor's thread on file I/O and the lock: a store for one machine,
/// tests and small services; a fleet shares a database instead.
///
/// Keys name files by the hexadecimal UTF-8 of their `description`, so distinct keys need
/// distinct descriptions (true of `String` and integer keys); a key whose name is too long for
/// the file system is refused with ``AsyncPaging/FeedSessionStoreError/unavailable(_:)``.
public actor FileFeedSessionStore<
    Key: LosslessStringConvertible & Hashable & Sendable,
    Item: Codable & Sendable,
    Cursor: Codable & Hashable & Sendable
>: FeedSessionStore {
    /// The directory the session files are in.
    public nonisolated let directory: String

    /// The number of bytes written by successful saves (appended lines, new files and
    /// compactions).
    public private(set) var writtenByteCount = 0
    /// The number of successful saves.
    public private(set) var writtenRecordCount = 0
    /// How many times a log was rewritten as one line.
    public private(set) var compactionCount = 0

    private struct Line: Codable {
        var version: FeedSessionVersion
        var record: FeedSessionRecord<Item, Cursor>
    }

    /// What the store knows of a session's file from its last read or write.
    private struct Summary {
        var version: FeedSessionVersion
        /// The bytes up to the end of the last complete line.
        var validLength: Int
        /// The file's size when read (a torn line included).
        var fileSize: Int
        var baseItemCount: Int
        var logItemCount: Int
        var pageCount: Int
        var lastPageHasNext: Bool
    }

    private var summaries: [Key: Summary] = [:]
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    /// Opens (and creates if needed) a store in `directory`.
    /// - Throws: ``AsyncPaging/FeedSessionStoreError/unavailable(_:)`` when the directory cannot
    ///   be created or is not writable.
    public init(directory: String) throws(FeedSessionStoreError) {
        self.directory = directory
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .unavailable("cannot create \(directory): errno \(errno)")
        }
        let lock = open(directory + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .unavailable("cannot open \(directory)/.lock: errno \(errno)") }
        close(lock)
        encoder.outputFormatting = [.sortedKeys]
    }

    // MARK: FeedSessionStore

    /// The saved session `key`, its log applied.
    public func load(_ key: Key) throws(FeedSessionStoreError) -> StoredFeedSession<Item, Cursor>? {
        try withDirectoryLock { () throws(FeedSessionStoreError) -> StoredFeedSession<Item, Cursor>? in
            guard let (state, summary) = try readSession(key) else {
                summaries[key] = nil
                return nil
            }
            summaries[key] = summary
            return StoredFeedSession(state: state, version: summary.version)
        }
    }

    /// Writes `record` if `key`'s saved version is `expectedVersion`.
    public func save(
        _ record: FeedSessionRecord<Item, Cursor>, for key: Key, expectedVersion: FeedSessionVersion?
    ) throws(FeedSessionStoreError) -> FeedSessionVersion {
        try withDirectoryLock { () throws(FeedSessionStoreError) -> FeedSessionVersion in
            let path = try path(of: key)
            var summary = try currentSummary(key, path: path)
            guard summary?.version == expectedVersion else {
                throw .versionConflict(expected: expectedVersion, found: summary?.version)
            }
            let version = expectedVersion?.next ?? .first
            if case .replaced(let state) = record {
                let bytes = try encodeLine(Line(version: version, record: record))
                try replaceFile(at: path, with: bytes)
                summaries[key] = Summary(
                    version: version, validLength: bytes.count, fileSize: bytes.count, baseItemCount: state.itemCount,
                    logItemCount: 0, pageCount: state.pages.count, lastPageHasNext: state.pages.last?.next != nil)
                writtenByteCount += bytes.count
                writtenRecordCount += 1
                return version
            }
            guard var current = summary else { throw .invalidRecord("a page record on a session with no saved list") }
            switch record {
            case .replaced:
                break
            case .appended(let page):
                guard current.lastPageHasNext else { throw .invalidRecord("a page appended after the end of the data") }
                current.pageCount += 1
                current.lastPageHasNext = page.next != nil
            case .prepended:
                current.pageCount += 1
            case .dropped(let pageCount, _, let end):
                guard pageCount >= 0, pageCount < current.pageCount else {
                    throw .invalidRecord("\(pageCount) pages dropped from a list of \(current.pageCount)")
                }
                current.pageCount -= pageCount
                if end == .end && pageCount > 0 { current.lastPageHasNext = true }
            }
            let bytes = try encodeLine(Line(version: version, record: record))
            try append(bytes, to: path, at: current.validLength, cuttingTo: current.fileSize != current.validLength)
            current.version = version
            current.validLength += bytes.count
            current.fileSize = current.validLength
            current.logItemCount += record.itemCount
            writtenByteCount += bytes.count
            writtenRecordCount += 1
            summary = current
            summaries[key] = current
            if current.logItemCount > current.baseItemCount {
                try compact(key, path: path)
            }
            return version
        }
    }

    /// Deletes session `key`'s file.
    @discardableResult
    public func remove(_ key: Key) throws(FeedSessionStoreError) -> Bool {
        try withDirectoryLock { () throws(FeedSessionStoreError) -> Bool in
            let path = try path(of: key)
            summaries[key] = nil
            if unlink(path) == 0 { return true }
            if errno == ENOENT { return false }
            throw .unavailable("cannot remove \(path): errno \(errno)")
        }
    }

    // MARK: Files

    private func withDirectoryLock<Result>(
        _ body: () throws(FeedSessionStoreError) -> Result
    ) throws(FeedSessionStoreError) -> Result {
        let lock = open(directory + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .unavailable("cannot open \(directory)/.lock: errno \(errno)") }
        defer { close(lock) } // closing releases the lock
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .unavailable("cannot lock \(directory)/.lock: errno \(errno)") }
        }
        return try body()
    }

    private func path(of key: Key) throws(FeedSessionStoreError) -> String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var name: [UInt8] = []
        for byte in key.description.utf8 {
            name.append(hexDigits[Int(byte >> 4)])
            name.append(hexDigits[Int(byte & 0x0F)])
        }
        guard !name.isEmpty else { return directory + "/_.log" }
        guard name.count <= 240 else { throw .unavailable("the key \(key) is too long for a file name") }
        return directory + "/" + String(decoding: name, as: UTF8.self) + ".log"
    }

    /// The summary of `key`'s file: the cached one when the file's size is unchanged since,
    /// else read again (another process wrote). `nil` when there is no file.
    private func currentSummary(_ key: Key, path: String) throws(FeedSessionStoreError) -> Summary? {
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { throw .unavailable("cannot stat \(path): errno \(errno)") }
            summaries[key] = nil
            return nil
        }
        if let cached = summaries[key], cached.fileSize == Int(info.st_size) { return cached }
        let summary = try readSession(key)?.summary
        summaries[key] = summary
        return summary
    }

    /// Reads and folds `key`'s file. A last line without its newline (a torn write) is left
    /// out.
    private func readSession(_ key: Key) throws(FeedSessionStoreError) -> (state: FeedState<Item, Cursor>, summary: Summary)? {
        let path = try path(of: key)
        guard let bytes = try readFile(path) else { return nil }
        var state: FeedState<Item, Cursor>?
        var version: FeedSessionVersion?
        var baseItemCount = 0
        var logItemCount = 0
        var lineStart = 0
        var validLength = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            let line: Line
            do {
                line = try decoder.decode(Line.self, from: Data(bytes[lineStart..<index]))
            } catch {
                throw .invalidRecord("\(path), byte \(lineStart): \(error)")
            }
            state = try line.record.applied(to: state)
            version = line.version
            if line.record.replacesList {
                baseItemCount = line.record.itemCount
                logItemCount = 0
            } else {
                logItemCount += line.record.itemCount
            }
            lineStart = index + 1
            validLength = lineStart
        }
        guard let state, let version else { return nil }
        return (state, Summary(
            version: version, validLength: validLength, fileSize: bytes.count, baseItemCount: baseItemCount,
            logItemCount: logItemCount, pageCount: state.pages.count, lastPageHasNext: state.pages.last?.next != nil))
    }

    /// Rewrites `key`'s log as one `replaced` line at its version.
    private func compact(_ key: Key, path: String) throws(FeedSessionStoreError) {
        guard let (state, summary) = try readSession(key) else { return }
        let bytes = try encodeLine(Line(version: summary.version, record: .replaced(state)))
        try replaceFile(at: path, with: bytes)
        summaries[key] = Summary(
            version: summary.version, validLength: bytes.count, fileSize: bytes.count, baseItemCount: state.itemCount,
            logItemCount: 0, pageCount: state.pages.count, lastPageHasNext: state.pages.last?.next != nil)
        writtenByteCount += bytes.count
        compactionCount += 1
    }

    private func encodeLine(_ line: Line) throws(FeedSessionStoreError) -> [UInt8] {
        do {
            var bytes = [UInt8](try encoder.encode(line))
            bytes.append(UInt8(ascii: "\n"))
            return bytes
        } catch {
            throw .invalidRecord("cannot encode: \(error)")
        }
    }

    private func readFile(_ path: String) throws(FeedSessionStoreError) -> [UInt8]? {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        if file < 0 {
            if errno == ENOENT { return nil }
            throw .unavailable("cannot open \(path): errno \(errno)")
        }
        defer { close(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unavailable("cannot read \(path): errno \(errno)")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes `bytes` at `offset` (cutting a torn line first) and syncs the file.
    private func append(_ bytes: [UInt8], to path: String, at offset: Int, cuttingTo cut: Bool) throws(FeedSessionStoreError) {
        let file = open(path, O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { throw .unavailable("cannot open \(path): errno \(errno)") }
        defer { close(file) }
        if cut && ftruncate(file, off_t(offset)) != 0 { throw .unavailable("cannot truncate \(path): errno \(errno)") }
        try writeAll(bytes, to: file, at: offset, path: path)
        guard fsync(file) == 0 else { throw .unavailable("cannot sync \(path): errno \(errno)") }
    }

    /// Writes `bytes` to a new file beside `path`, syncs it and renames it over `path`.
    private func replaceFile(at path: String, with bytes: [UInt8]) throws(FeedSessionStoreError) {
        let temporary = path + ".new"
        let file = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw .unavailable("cannot create \(temporary): errno \(errno)") }
        do throws(FeedSessionStoreError) {
            try writeAll(bytes, to: file, at: 0, path: temporary)
            guard fsync(file) == 0 else { throw .unavailable("cannot sync \(temporary): errno \(errno)") }
        } catch {
            close(file)
            unlink(temporary)
            throw error
        }
        close(file)
        guard rename(temporary, path) == 0 else { throw .unavailable("cannot rename \(temporary): errno \(errno)") }
        let folder = open(directory, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder) // the rename itself reaches the disk
            close(folder)
        }
    }

    private func writeAll(_ bytes: [UInt8], to file: Int32, at offset: Int, path: String) throws(FeedSessionStoreError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                pwrite(file, $0.baseAddress! + written, bytes.count - written, off_t(offset + written))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unavailable("cannot write \(path): errno \(errno)")
            }
            written += count
        }
    }
}
