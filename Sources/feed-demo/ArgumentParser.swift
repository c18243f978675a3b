import Foundation

/// The hand-written command-line parser, and the help text that documents every flag.
enum ArgumentParser {
    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws(ArgumentError) -> DemoOptions {
        var options = DemoOptions()
        var given = Set<String>()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                throw ArgumentError("unexpected argument '\(argument)'; feed-demo takes flags only")
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            let flag = flagNames[name] ?? name
            guard knownFlags.contains(flag) else {
                throw ArgumentError("unknown flag '\(name)'\(suggestion(for: name))")
            }
            guard given.insert(flag).inserted else { throw ArgumentError("\(flag) is given more than once") }

            if !flagsWithValues.contains(flag) {
                if inlineValue != nil { throw ArgumentError("\(flag) takes no value") }
                switch flag {
                case "--help": options.showHelp = true
                case "--script": options.forceScript = true
                default: break
                }
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw ArgumentError("\(flag) needs a value (\(valueHint[flag] ?? "a value"))")
            }
            switch flag {
            case "--page-size": options.pageSize = try integer(value, flag: flag, in: 1...500)
            case "--total-items": options.totalItems = try integer(value, flag: flag, in: 0...1_000_000)
            case "--prefetch": options.prefetchDistance = try integer(value, flag: flag, in: 0...1_000)
            case "--open-at": options.openAt = try integer(value, flag: flag, in: 0...1_000_000)
            case "--seed": options.seed = UInt64(try integer(value, flag: flag, in: 0...Int.max))
            case "--latency": options.latency = try duration(value, flag: flag)
            case "--failure-rate": options.failureRate = try fraction(value, flag: flag)
            case "--url": options.url = try httpURL(value, flag: flag)
            case "--scheme":
                guard let scheme = HTTPScheme(rawValue: value) else {
                    throw ArgumentError("--scheme needs \(valueHint[flag] ?? "a scheme"), got '\(value)'")
                }
                options.scheme = scheme
            default: break
            }
        }
        return options
    }

    static let helpText = """
        feed-demo: a terminal feed driven by the AsyncPaging engine and a simulated API (or,
        with --url, a real HTTP API).

        USAGE
          swift run feed-demo [flags]            interactive on a terminal, script otherwise
          swift run feed-demo --script [flags]   the scripted scenario with its transcript
          swift run feed-demo --url URL [--scheme link|cursor|offset|pages] [--page-size N]

        MODES
          (no flag)              Interactive when stdin and stdout are both terminals;
                                 script mode when either is not (a pipe, a file, CI).
          --script               Script mode even on a terminal: runs a fixed scenario (first
                                 page, load more, refresh during load-more, load-more during
                                 refresh, a failure and a retry, end of data, the UI kit's
                                 prefetch trigger and a pull to refresh, then the feed opened
                                 in the middle loading newer posts above and older below, up
                                 to the start of the data), prints the
                                 snapshots and events, and checks them. Exit 0 when every
                                 check holds, 1 when one fails. Takes about half a second.

        SIMULATED API
          --page-size N          Items per page, 1 to 500. Default: 15.
          --total-items N        Posts in the feed, 0 to 1000000; "end of data" shows after
                                 them. Default: 100 (interactive), 60 (script). Script mode
                                 needs at least 3 x page size + 1.
          --latency DURATION     Typical response time, each request varying by -40%..+40%,
                                 e.g. 700ms, 1.5s, 0. Up to 60s. Default: 700ms (interactive),
                                 40ms (script).
          --failure-rate P       Chance from 0 to 1 that a request fails with a simulated
                                 HTTP 503, drawn from the seed (a retry may succeed); the
                                 first screen says so when it is above 0. Default: 0 (the
                                 f key fails one request on demand). Interactive only: the
                                 script injects its own.
          --seed N               Seed of the posts, latencies and failures. Default: 42.
          --open-at N            Open the feed N posts below the newest (0 is the newest), in
                                 the middle of the data, like a timeline opened at a
                                 notification: the first row is row N + 1 of the data (rows
                                 are numbered from the newest post, and keep their numbers
                                 as pages land above), and the list grows both ways, newer
                                 posts above (the header says "loading newer…", then "start
                                 of the data") and older ones below. Must be below
                                 --total-items. Default: the first page. In script mode the
                                 scenario opens there for its two-ended step (default: the
                                 middle of the feed).

        REAL HTTP API
          --url URL              Page a real HTTP JSON API through AsyncPagingHTTP instead of
                                 the simulated API (http or https). Interactive on a terminal;
                                 otherwise it prints every item up to the end of the data (at
                                 most 100 pages) and exits 0, or 1 on a failure. Items are
                                 JSON objects, shown by their "id" and the first of "title",
                                 "name", "login", "full_name" (else the compact JSON). A body
                                 is a top-level array of items, or an object whose "items" (or
                                 "data") member is that array, with "next" (or "next_cursor"),
                                 "total" and "has_more" as the scheme needs.
          --scheme SCHEME        How the API pages. Default: link.
                                   link    ?per_page=N, then the Link: <...>; rel="next" header
                                           (GitHub's style)
                                   cursor  ?limit=N, then ?cursor=C with C the body's "next"
                                           or "next_cursor"; null or absent ends
                                   offset  ?offset=O&limit=N; ends at "total", or a short page
                                   pages   ?page=P&per_page=N from 1; ends at "has_more": false,
                                           or a short page
                                 --page-size sets N. The simulated API's flags and --script do
                                 not apply.

        SCREEN
          --prefetch N           Load more when the last visible row is N rows or fewer from
                                 the end of the list (0: only at the very bottom). Default: 3.

        OTHER
          -h, --help             Show this help and exit.

        KEYS (interactive)
          Down/j, Up/k           scroll one row; scrolling near the bottom loads more
          Up/k at the top        pull the header: three presses pass the threshold, and
                                 letting go (no Up for half a second) refreshes; opened with
                                 --open-at, scrolling near the top loads newer posts above
                                 and the rows on screen stay where they are
          mouse wheel            scroll three rows (at the top: pull the header)
          PgDn/space, PgUp/b     scroll one page
          g/Home, G/End          go to the top / the bottom (after g, pages that land above
                                 show at the top, up to row 1)
          r                      refresh (cancels a load-more in flight)
          m                      load more now (cancels a refresh in flight; at the end of
                                 the data it says there is no more)
          p                      load the page above the first row now (newer posts, with
                                 --open-at; at the start of the data it says so)
          t                      retry after a failure
          f                      make the next request fail (to see the error line;
                                 simulated API only)
          q, Ctrl-C              quit and restore the terminal

        EXIT CODES
          0 success, 1 a script check failed (or a --url page failed when
          not interactive), 2 bad flags.
        """

    // MARK: Flags

    private static let knownFlags: Set<String> = [
        "--help", "--script", "--page-size", "--total-items", "--latency", "--failure-rate", "--seed", "--prefetch",
        "--url", "--scheme", "--open-at",
    ]
    private static let flagNames = ["-h": "--help"]
    private static let flagsWithValues: Set<String> = [
        "--page-size", "--total-items", "--latency", "--failure-rate", "--seed", "--prefetch", "--url", "--scheme",
        "--open-at",
    ]
    private static let valueHint = [
        "--page-size": "a whole number, e.g. 15",
        "--total-items": "a whole number, e.g. 100",
        "--latency": "a duration, e.g. 700ms or 1.5s",
        "--failure-rate": "a number from 0 to 1, e.g. 0.1",
        "--seed": "a whole number, e.g. 42",
        "--prefetch": "a whole number of rows, e.g. 3",
        "--open-at": "a post number from 0 (the newest), e.g. 40",
        "--url": "an http or https URL, e.g. https://api.github.com/orgs/swiftlang/repos",
        "--scheme": "one of cursor, link, offset, pages",
    ]

    private static func suggestion(for name: String) -> String {
        let bare = name.drop { $0 == "-" }
        guard !bare.isEmpty else { return "" }
        let close = knownFlags.sorted().first { flag in
            let known = flag.dropFirst(2)
            return known.hasPrefix(bare) || bare.hasPrefix(known) || known.contains(bare)
        }
        return close.map { "; did you mean \($0)?" } ?? ""
    }

    // MARK: Values

    private static func integer(_ text: String, flag: String, in range: ClosedRange<Int>) throws(ArgumentError) -> Int {
        guard let value = Int(text) else {
            throw ArgumentError("\(flag) needs \(valueHint[flag] ?? "a whole number"), got '\(text)'")
        }
        guard range.contains(value) else {
            throw ArgumentError("\(flag) must be from \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
        return value
    }

    /// An absolute `http` or `https` URL with a host.
    private static func httpURL(_ text: String, flag: String) throws(ArgumentError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else {
            throw ArgumentError("\(flag) needs \(valueHint[flag] ?? "an http or https URL"), got '\(text)'")
        }
        return url
    }

    private static func fraction(_ text: String, flag: String) throws(ArgumentError) -> Double {
        guard let value = Double(text), value.isFinite, (0...1).contains(value) else {
            throw ArgumentError("\(flag) needs \(valueHint[flag] ?? "a number from 0 to 1"), got '\(text)'")
        }
        return value
    }

    /// `700ms`, `1.5s`, `2s` or `0`.
    private static func duration(_ text: String, flag: String) throws(ArgumentError) -> Duration {
        let invalid = ArgumentError("\(flag) needs \(valueHint[flag] ?? "a duration"), got '\(text)'")
        let number: Substring
        let scale: Double
        if text.hasSuffix("ms") {
            (number, scale) = (text.dropLast(2), 1e-3)
        } else if text.hasSuffix("s") {
            (number, scale) = (text.dropLast(), 1)
        } else if text == "0" {
            (number, scale) = ("0", 1)
        } else {
            throw invalid
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { throw invalid }
        let seconds = value * scale
        guard seconds <= 60 else { throw ArgumentError("\(flag) must be at most 60s, got \(text)") }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
