import AsyncPaging

/// The printed record of the script mode, and the tally of its checks.
///
/// Everything goes to stdout, in the order it happens, with no timings, so that two runs with
/// the same flags print the same transcript.
struct Transcript {
    /// Whether stdout gets colours: failures red, cancellations yellow, the end of data dim.
    let colors = Tone.colorsEnabled(for: 1)
    private(set) var checkCount = 0
    private(set) var failures: [String] = []
    private var stepNumber = 0

    mutating func step(_ title: String) {
        stepNumber += 1
        print("")
        print("\(stepNumber). \(title)")
    }

    func note(_ text: String) {
        print("   \(text)")
    }

    func event(_ event: FeedEvent) {
        let tone: Tone = switch event {
        case .ended(_, .failed): .failure
        case .ended(_, .cancelled): .cancellation
        case .ended(_, .endOfData): .quiet
        default: .plain
        }
        print("   event     \(toned("\(event)", tone))")
    }

    /// `text` in `tone`, when colours are on.
    private func toned(_ text: String, _ tone: Tone) -> String {
        colors && tone != .plain ? tone.escape + text + "\u{1B}[0m" : text
    }

    func call(_ call: String, _ result: LoadResult) {
        print("   call      \(call) -> \(result.outcome)")
    }

    func snapshot(_ snapshot: FeedSnapshot<FeedItem>, status: FeedStatus) {
        let ids = snapshot.map(\.id)
        let shown: String
        if ids.count <= 6 {
            shown = ids.map { "#\($0)" }.joined(separator: " ")
        } else {
            shown = (ids.prefix(3).map { "#\($0)" } + ["…"] + ids.suffix(2).map { "#\($0)" }).joined(separator: " ")
        }
        print("   snapshot  v\(snapshot.version), generation \(snapshot.generation), \(snapshot.change): "
            + "\(snapshot.count) items [\(shown)]")
        print("   status    \(status)")
    }

    /// Records a check; `detail` says what was found when it does not hold.
    mutating func check(_ holds: Bool, _ claim: String, _ detail: @autoclosure () -> String = "") {
        checkCount += 1
        if holds {
            print("   ✓ \(claim)")
        } else {
            let found = detail()
            let text = found.isEmpty ? claim : "\(claim) (found: \(found))"
            print(toned("   ✗ \(text)", .failure))
            failures.append(text)
        }
    }
}
