import AsyncPaging

/// `--url` when stdin or stdout is not a terminal: pages the API from the first page to the
/// end of the data (at most ``maximumPages`` pages), printing every item as a numbered line,
/// then how it ended. Exit 0 at the end of the data or the page limit, 1 on a failure.
struct HTTPListing {
    let options: ResolvedOptions

    /// At most this many pages, so that an endless API ends too.
    static let maximumPages = 100

    func run() async -> Int32 {
        guard let http = options.http else { return 2 }
        let transport = CountingTransport()
        Terminal.output("feed-demo: GET \(http.url.absoluteString) · scheme \(http.scheme) · page size \(options.pageSize)\n")
        do {
            let box = try http.makeController(pageSize: options.pageSize, loadsInitialPage: false, transport: transport)
            return await list(box, transport: transport)
        } catch {
            Terminal.writeError("feed-demo: invalid configuration: \(error)\n")
            return 2
        }
    }

    /// Opens the box: its cursor type is the scheme's.
    private func list<Box: FeedControllerBox>(_ box: Box, transport: CountingTransport) async -> Int32 {
        await list(box.controller, transport: transport)
    }

    private func list<Cursor>(_ controller: FeedController<JSONFeedItem, Cursor>, transport: CountingTransport) async -> Int32 {
        var printed = 0
        var result = await controller.refresh()
        var pages = 1
        while true {
            let items = controller.currentSnapshot
            let idWidth = items.reduce(0) { max($0, $1.idLabel.count) }
            // At least three digits, as on the interactive screen: the lines of the first pages
            // stay aligned with those printed after the hundredth item.
            let numberWidth = max(ScreenRenderer.minimumNumberWidth, String(max(items.count, 1)).count)
            var lines = ""
            for index in printed..<items.count {
                let number = String(index + 1)
                lines += String(repeating: " ", count: numberWidth - number.count) + "\(number)  \(items[index].line(idWidth: idWidth))\n"
            }
            printed = items.count
            Terminal.output(lines)
            switch result.outcome {
            case .completed where pages < HTTPListing.maximumPages:
                result = await controller.loadMore()
                pages += 1
                continue
            case .completed:
                Terminal.output("feed-demo: stopped after \(pages) pages · \(printed) items · api: \(transport.summary)\n")
            case .endOfData:
                Terminal.output("── no more data · all \(printed) items loaded ── api: \(transport.summary)\n")
            case .failed(let failure):
                Terminal.output("✗ \(EventText.name(of: failure.side)) failed: \(EventText.error(failure.error)) · api: \(transport.summary)\n")
                await controller.close()
                return 1
            case .cancelled, .ignored:
                Terminal.output("feed-demo: the load ended early (\(result)) · api: \(transport.summary)\n")
                await controller.close()
                return 1
            }
            await controller.close()
            return 0
        }
    }
}
