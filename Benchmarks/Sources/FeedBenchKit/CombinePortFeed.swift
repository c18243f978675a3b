import AsyncPaging
import OpenCombine

/// Baseline 2, the Combine-style port: seed 000's improved view model written with OpenCombine,
/// operator for operator.
///
/// | seed (RxSwift)            | here (Combine)                                   |
/// | ------------------------- | ------------------------------------------------ |
/// | `BehaviorRelay`           | `CurrentValueSubject`                            |
/// | `startWith(())`           | `prepend(())`                                    |
/// | `flatMapLatest`           | `map` + `switchToLatest`                         |
/// | `takeUntil`               | `prefix(untilOutputFrom:)`                       |
/// | `share(replay: 1)`        | `share()`                                        |
/// | `Observable.merge(a, b)`  | `[a, b].publisher.flatMap { $0 }` (OpenCombine 0.14 has no `Merge`) |
///
/// Everything runs synchronously on the thread that sends the pull, as Combine does without a
/// scheduler. Not `Sendable`: one task owns it, as the main thread owns a view model.
public final class CombinePortFeed<Item: BenchItem> {
    public typealias Service = (FeedSide) -> AnyPublisher<[Item], Never>

    /// The list (`tableData`).
    public let tableData = CurrentValueSubject<[Item], Never>([])
    /// Fires when the header should stop spinning.
    public let endHeaderRefreshing: AnyPublisher<Bool, Never>
    /// Fires when the footer should stop spinning.
    public let endFooterRefreshing: AnyPublisher<Bool, Never>

    private let headerRefresh = PassthroughSubject<Void, Never>()
    private let footerRefresh = PassthroughSubject<Void, Never>()
    private var subscriptions: [AnyCancellable] = []

    /// - Parameters:
    ///   - loadsInitialPage: `startWith(())` on the header input, as the seed does.
    ///   - service: The network service: a publisher of one page per pull.
    public init(loadsInitialPage: Bool = true, service: @escaping Service) {
        let headerRefresh = self.headerRefresh
        let footerRefresh = self.footerRefresh
        let headerInput = loadsInitialPage
            ? headerRefresh.prepend(()).eraseToAnyPublisher() : headerRefresh.eraseToAnyPublisher()
        let headerData = headerInput
            .map { _ in service(.refresh).prefix(untilOutputFrom: footerRefresh) }
            .switchToLatest()
            .share()
        let footerData = footerRefresh
            .map { _ in service(.loadMore).prefix(untilOutputFrom: headerRefresh) }
            .switchToLatest()
            .share()
        endHeaderRefreshing = [
            headerData.map { _ in true }.eraseToAnyPublisher(),
            footerRefresh.map { _ in true }.eraseToAnyPublisher(),
        ].publisher.flatMap { $0 }.eraseToAnyPublisher()
        endFooterRefreshing = [
            footerData.map { _ in true }.eraseToAnyPublisher(),
            headerRefresh.map { _ in true }.eraseToAnyPublisher(),
        ].publisher.flatMap { $0 }.eraseToAnyPublisher()
        let tableData = self.tableData
        headerData
            .sink { tableData.send($0) }
            .store(in: &subscriptions)
        footerData
            .sink { tableData.send(tableData.value + $0) }
            .store(in: &subscriptions)
    }

    /// A Combine port whose service answers at once from `source`'s prebuilt pages.
    public convenience init(loadsInitialPage: Bool = true, source: ImmediateSource<Item>) {
        self.init(loadsInitialPage: loadsInitialPage) { side in
            Just(side == .refresh ? source.firstPage : source.page).eraseToAnyPublisher()
        }
    }

    public var count: Int { tableData.value.count }

    /// The header pull.
    public func refresh() { headerRefresh.send(()) }

    /// The footer pull.
    public func loadMore() { footerRefresh.send(()) }
}
