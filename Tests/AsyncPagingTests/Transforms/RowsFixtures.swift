import AsyncPaging
import AsyncPagingTesting
import Synchronization
import Testing

/// A chat message: its day decides the separators (a day row between messages of different
/// days), `hidden` the filter.
struct Message: Identifiable, Sendable, Hashable, CustomStringConvertible {
    let id: Int
    var day: Int
    var text = "v0"
    var hidden = false

    init(id: Int, day: Int? = nil, text: String = "v0", hidden: Bool = false) {
        self.id = id
        self.day = day ?? id / 4
        self.text = text
        self.hidden = hidden
    }

    var description: String { "\(id)@\(day)\(hidden ? "h" : "")" }
}

/// The rows of a chat screen: messages, a day row between days, a start header and an end footer.
enum MessageRow: Hashable, Sendable, CustomStringConvertible {
    case message(Int, String)
    case day(Int)
    case start(Int)
    case end(Int)

    var description: String {
        switch self {
        case .message(let id, let text): "m\(id)\(text == "v0" ? "" : ":" + text)"
        case .day(let day): "D\(day)"
        case .start(let day): "S\(day)"
        case .end(let day): "E\(day)"
        }
    }
}

typealias MessageFeed = FeedController<Message, Int>

/// How many times each function of a transform ran.
final class TransformCalls: Sendable {
    let counts = Mutex((map: 0, filter: 0, separator: 0))
    var map: Int { counts.withLock { $0.map } }
    var filter: Int { counts.withLock { $0.filter } }
    var separator: Int { counts.withLock { $0.separator } }
    func reset() { counts.withLock { $0 = (0, 0, 0) } }
}

enum ChatTransform {
    static func separator(_ before: Message?, _ after: Message?) -> MessageRow? {
        switch (before, after) {
        case (nil, let after?): .start(after.day)
        case (let before?, nil): .end(before.day)
        case (let before?, let after?): before.day != after.day ? .day(after.day) : nil
        case (nil, nil): nil
        }
    }

    /// The chat transform: hidden messages filtered out, day rows, a start and an end row;
    /// `calls` counts the functions' runs.
    static func make(calls: TransformCalls? = nil, separators: Bool = true) -> FeedTransform<Message, MessageRow> {
        let filter: @Sendable (Message) -> Bool = { message in
            calls?.counts.withLock { $0.filter += 1 }
            return !message.hidden
        }
        let counted: @Sendable (Message?, Message?) -> MessageRow? = { before, after in
            calls?.counts.withLock { $0.separator += 1 }
            return ChatTransform.separator(before, after)
        }
        let map: @Sendable (Message) -> MessageRow = { message in
            calls?.counts.withLock { $0.map += 1 }
            return .message(message.id, message.text)
        }
        return FeedTransform(filter: filter, separator: separators ? counted : nil, map: map)
    }
}

/// Follows a feed with a ``FeedRowsTransformer`` and checks, after every update it is given,
/// the invariant of transformed rows: the rows are the transform of the whole list from
/// scratch, and a subscriber that applies each change to its own array of rows ends with
/// exactly those rows.
final class RowsChecker {
    let calls = TransformCalls()
    let transformer: FeedRowsTransformer<Message, MessageRow>
    /// The same functions, uncounted: the from-scratch reference.
    let reference: FeedTransform<Message, MessageRow>
    var mirror: [MessageRow] = []
    var changes: [FeedRowsChange] = []

    init(separators: Bool = true) {
        transformer = FeedRowsTransformer(ChatTransform.make(calls: calls, separators: separators))
        reference = ChatTransform.make(separators: separators)
    }

    /// Applies the feed's current list and states, checks the invariant, and returns the rows.
    @discardableResult
    func check(_ feed: MessageFeed, sourceLocation: SourceLocation = #_sourceLocation) -> FeedRows<MessageRow> {
        check(
            FeedUpdate(snapshot: feed.currentSnapshot, status: feed.currentStatus, loadStates: feed.currentLoadStates),
            sourceLocation: sourceLocation)
    }

    @discardableResult
    func check(_ update: FeedUpdate<Message>, sourceLocation: SourceLocation = #_sourceLocation) -> FeedRows<MessageRow> {
        let rows = transformer.apply(update)
        let expected = reference.rows(
            of: update.snapshot, startReached: update.loadStates.loadPrevious == .reachedEnd,
            endReached: update.loadStates.loadMore == .reachedEnd)
        #expect(Array(rows) == expected, "rows of v\(update.snapshot.version) (\(rows.change))", sourceLocation: sourceLocation)
        let before = mirror
        rows.change.apply(to: &mirror, from: rows)
        #expect(
            mirror == expected, "applying \(rows.change) to \(before) gave \(mirror), not \(expected)",
            sourceLocation: sourceLocation)
        mirror = expected
        changes.append(rows.change)
        return rows
    }
}

/// Pages of 10 messages: page `c` holds messages `10c..<10c+10` (day `id / 4`, so days run
/// across page boundaries), previous `c - 1`, next `c + 1`, pages `0...last`. Messages in
/// `hidden` are hidden.
func messageFeed(
    clock: TestClock, at cursor: Int? = nil, last: Int = 9, hidden: Set<Int> = [], maximumItems: Int? = nil,
    refreshMode: RefreshMode = .replace, firstPages: PageOverrides? = nil
) async -> MessageFeed {
    let configuration: FeedConfiguration
    do {
        configuration = try FeedConfiguration(pageSize: 10, refreshMode: refreshMode, maximumItems: maximumItems)
    } catch { fatalError("\(error)") }
    let feed = MessageFeed(clock: clock, configuration: configuration, initialCursor: cursor) { request in
        let page = request.cursor ?? 0
        let ids = firstPages?.pages.withLock({ $0[page] }).map(Array.init) ?? Array(page * 10..<page * 10 + 10)
        return Page(
            items: ids.map { Message(id: $0, hidden: hidden.contains($0)) },
            previous: page > 0 ? page - 1 : nil, next: page < last ? page + 1 : nil)
    }
    await initialLoadEnded(feed)
    return feed
}

/// Pages whose ids a test changes while the feed runs (a head merge's new first page).
final class PageOverrides: Sendable {
    let pages: Mutex<[Int: ClosedRange<Int>]>
    init(_ pages: [Int: ClosedRange<Int>]) { self.pages = Mutex(pages) }
}
