import FeedBenchKit
import Glibc

/// Reads the `key<TAB>value` lines of the three passes and prints the markdown tables.
/// The table from the passes' files. A key that several passes emit (the memory and mallocs
/// passes time their runs too) is taken from the first file that has it: run.sh passes the
/// time pass first, so every wall-clock figure is the plain time pass's.
func printTable(files: [String]) {
    var values: [String: Double] = [:]
    for path in files {
        guard let file = fopen(path, "r") else { continue }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, 512, file) != nil {
            let fields = lineText(line).split(separator: "\t")
            guard fields.count == 2, let value = Double(fields[1].filter { $0 != "\n" }) else { continue }
            let key = String(fields[0])
            if values[key] == nil { values[key] = value }
        }
    }
    let table = Table(values: values)
    table.printAll()
}

struct Table {
    let values: [String: Double]
    /// The middle of the post items' keys (`append.post.engine.100000.ns_per_page`).
    let post = PostItem.benchName

    func value(_ key: String) -> Double? { values[key].flatMap { $0.isNaN || $0 < 0 ? nil : $0 } }

    func text(_ key: String, digits: Int = 0, scale: Double = 1) -> String {
        guard let value = value(key) else { return "n/a" }
        return format(value * scale, digits: digits)
    }

    func ratio(_ numerator: String, _ denominator: String) -> Double? {
        guard let top = value(numerator), let bottom = value(denominator), bottom > 0 else { return nil }
        return top / bottom
    }

    func printAll() {
        let contenders = Contender.allCases
        print("#### 1. Append one page of 20 two-word items (16 bytes each; one subscriber receives it)\n")
        printAppend(prefix: "append", lengths: [1_000, 100_000, 1_000_000])
        print("\n#### 1b. Append one page of 20 post items (id + two heap strings)\n")
        printAppend(prefix: "append.\(post)", lengths: [1_000, 100_000])
        print("\n#### 2. Pages delivered end to end (1,000 load-mores from one page)\n")
        printDelivery(prefix: "deliver")
        print("\n#### 2b. Pages delivered end to end, post items\n")
        printDelivery(prefix: "deliver.\(post)")
        print("\n#### 3. A refresh cancelling an in-flight load-more: from the call to the end event at a subscriber\n")
        print("| contender | median µs | mallocs |")
        print("| --- | ---: | ---: |")
        for contender in contenders {
            print("| \(contender) | \(text("cancel.\(contender).ns", digits: 2, scale: 1e-3)) | \(text("cancel.\(contender).mallocs")) |")
        }
        print("\n#### 4. 10,000 feeds in one process, each with its initial load and 5 more pages, concurrently\n")
        print("| contender | total s | peak RSS growth MiB | heap bytes/feed after loads | mallocs/feed | idle feed: heap bytes | idle feed: mallocs |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for contender in contenders {
            let key = "many.\(contender)"
            print("| \(contender) | \(text("\(key).seconds", digits: 2)) | \(text("\(key).peak_rss_growth_mib", digits: 1)) | \(text("\(key).bytes_per_feed")) | \(text("\(key).mallocs_per_feed", digits: 1)) | \(text("idle.\(contender).bytes")) | \(text("idle.\(contender).mallocs", digits: 1)) |")
        }
        print("\n#### 5. A feed of 1,000,000 items (16-byte items) against a plain array\n")
        print("| holder | heap bytes | ÷ plain array |")
        print("| --- | ---: | ---: |")
        print("| plain `[FeedItem]` | \(text("long.array.bytes")) | 1.00 |")
        for contender in contenders {
            let ratio = ratio("long.\(contender).bytes", "long.array.bytes").map { format($0, digits: 2) } ?? "n/a"
            print("| \(contender) | \(text("long.\(contender).bytes")) | \(ratio) |")
        }
        printTargets()
    }

    /// Scenario 1's table: ns and mallocs per page at each length, from keys `prefix.contender.length.*`.
    func printAppend(prefix: String, lengths: [Int]) {
        let labels = lengths.map { $0 >= 1_000_000 ? "\($0 / 1_000_000)M" : "\($0 / 1_000)k" }
        let columns = ["ns/page at \(labels[0])"] + labels.dropFirst().map { "at \($0)" }
            + ["mallocs/page at \(labels[0])"] + labels.dropFirst().map { "at \($0)" }
        print("| contender | " + columns.joined(separator: " | ") + " |")
        print("| --- |" + String(repeating: " ---: |", count: columns.count))
        for contender in Contender.allCases {
            let times = lengths.map { text("\(prefix).\(contender).\($0).ns_per_page") }
            let mallocs = lengths.map { text("\(prefix).\(contender).\($0).mallocs_per_page", digits: 1) }
            print("| \(contender) | " + (times + mallocs).joined(separator: " | ") + " |")
        }
    }

    /// Scenario 2's table, from keys `prefix.contender.subscribers.*`.
    func printDelivery(prefix: String) {
        print("| contender | pages/s, 1 subscriber | pages/s, 100 subscribers | lists received per page per subscriber (1) | (100) | mallocs/page, 1 | mallocs/page, 100 |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for contender in Contender.allCases {
            let key = "\(prefix).\(contender)"
            print("| \(contender) | \(text("\(key).1.pages_per_s")) | \(text("\(key).100.pages_per_s")) | \(text("\(key).1.deliveries_per_page", digits: 2)) | \(text("\(key).100.deliveries_per_page", digits: 2)) | \(text("\(key).1.mallocs_per_page", digits: 1)) | \(text("\(key).100.mallocs_per_page", digits: 1)) |")
        }
    }

    func printTargets() {
        print("\n#### Targets\n")
        print("| figure | target | measured | met |")
        print("| --- | --- | ---: | :---: |")
        func row(_ figure: String, _ target: String, _ measured: Double?, digits: Int, met: (Double) -> Bool) {
            let shown = measured.map { format($0, digits: digits) } ?? "n/a"
            let verdict = measured.map { met($0) ? "yes" : "**no**" } ?? "n/a"
            print("| \(figure) | \(target) | \(shown) | \(verdict) |")
        }
        row("per-page cost at 1M ÷ at 1k (engine)", "≤ 1.25",
            ratio("append.engine.1000000.ns_per_page", "append.engine.1000.ns_per_page"), digits: 2) { $0 <= 1.25 }
        row("seed port ÷ engine, per page at 100k", "≥ 50",
            ratio("append.seed-port.100000.ns_per_page", "append.engine.100000.ns_per_page"), digits: 1) { $0 >= 50 }
        row("seed port ÷ engine, per page at 100k (post items)", "≥ 50",
            ratio("append.\(post).seed-port.100000.ns_per_page", "append.\(post).engine.100000.ns_per_page"),
            digits: 1) { $0 >= 50 }
        row("engine ÷ Combine port, pages/s (1 subscriber)", "≥ 2",
            ratio("deliver.engine.1.pages_per_s", "deliver.combine-port.1.pages_per_s"), digits: 2) { $0 >= 2 }
        row("engine ÷ Combine port, pages/s (post items, 1 subscriber)", "≥ 2",
            ratio("deliver.\(post).engine.1.pages_per_s", "deliver.\(post).combine-port.1.pages_per_s"), digits: 2) { $0 >= 2 }
        row("engine ÷ Combine port, pages/s (100 subscribers)", "≥ 2",
            ratio("deliver.engine.100.pages_per_s", "deliver.combine-port.100.pages_per_s"), digits: 2) { $0 >= 2 }
        row("engine ÷ Combine port, pages/s (post items, 100 subscribers)", "≥ 2",
            ratio("deliver.\(post).engine.100.pages_per_s", "deliver.\(post).combine-port.100.pages_per_s"),
            digits: 2) { $0 >= 2 }
        for length in [1_000, 100_000, 1_000_000] {
            row("engine ÷ floor, per page at \(length / 1000)k", "≤ 3",
                ratio("append.engine.\(length).ns_per_page", "append.floor.\(length).ns_per_page"), digits: 1) { $0 <= 3 }
        }
        row("mallocs per appended page, 1 subscriber (at 100k)", "≤ 8",
            value("append.engine.100000.mallocs_per_page"), digits: 1) { $0 <= 8 }
        row("heap bytes per idle controller", "≤ 2,048", value("idle.engine.bytes"), digits: 0) { $0 <= 2048 }
        row("1M-item feed ÷ plain array", "≤ 1.1",
            ratio("long.engine.bytes", "long.array.bytes"), digits: 3) { $0 <= 1.1 }
    }
}

func format(_ value: Double, digits: Int) -> String {
    var rounded = (value * pow(10, Double(digits))).rounded() / pow(10, Double(digits))
    if rounded == 0 { rounded = 0 }
    var text = digits == 0 ? String(Int(rounded)) : String(rounded)
    if digits > 0, let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    if digits == 0, rounded >= 10_000 {
        // Thousands separators for the big counts.
        var grouped = ""
        for (offset, character) in text.reversed().enumerated() {
            if offset > 0 && offset % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        text = String(grouped.reversed())
    }
    return text
}

/// The text of a NUL-terminated line that `fgets` filled in.
func lineText(_ buffer: [CChar]) -> String {
    buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}
