import Foundation
import OfflineFeedKit

/// A database in a file of its own under the temporary directory, removed at the end of the
/// test (`remove()`); `reopen()` opens the same file again, as an app does after a restart.
struct TestDatabase {
    let url: URL
    let database: FeedDatabase

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("offline-feed-\(UUID().uuidString).sqlite")
        database = try FeedDatabase(path: url.path)
    }

    private init(url: URL) throws {
        self.url = url
        database = try FeedDatabase(path: url.path)
    }

    func reopen() throws -> TestDatabase { try TestDatabase(url: url) }

    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}
