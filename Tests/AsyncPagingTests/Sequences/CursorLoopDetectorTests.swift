@testable import AsyncPaging
import Testing

/// The cursors a source names when it runs `tail` pages and then loops through `loop` pages:
/// position `i` is cursor `i` before the loop, then the loop's cursors again and again.
private func loopingCursor(at position: Int, tail: Int, loop: Int) -> Int {
    position < tail ? position : tail + (position - tail) % loop
}

/// The position at which the detector first refuses a cursor of that sequence.
private func detectionPosition(tail: Int, loop: Int) -> Int? {
    var detector = _CursorLoopDetector<Int>()
    for position in 0..<(tail + 4 * loop + 64) {
        if !detector.insertIfNew(loopingCursor(at: position, tail: tail, loop: loop)) { return position }
    }
    return nil
}

@Suite("The page sequences' repeated-cursor guard")
struct CursorLoopDetectorTests {
    @Test("a loop of up to 8 cursors is caught at its first repeat, however many cursors came before",
          arguments: [0, 1, 2, 7, 100, 1_023, 1_024, 1_025, 49_153])
    func shortLoopsAtOnce(tail: Int) {
        for loop in 1...8 {
            #expect(detectionPosition(tail: tail, loop: loop) == tail + loop, "loop of \(loop) after \(tail)")
        }
    }

    @Test("a longer loop is caught less than one loop after its first repeat, however many cursors came before",
          arguments: [0, 1, 3, 17, 100, 1_000, 4_095, 4_096, 10_000])
    func longLoopsWithinALoop(tail: Int) {
        for loop in Array(9...130) + [200, 255, 256, 257, 300, 511, 512, 513, 1_000, 1_025, 4_097] {
            guard let position = detectionPosition(tail: tail, loop: loop) else {
                Issue.record("loop of \(loop) after \(tail) never caught")
                continue
            }
            let firstRepeat = tail + loop
            #expect(position >= firstRepeat && position <= firstRepeat + loop - 1, "loop of \(loop) after \(tail): \(position)")
        }
    }

    @Test("the bound is not loose: a loop of 4,097 from the start is caught 4,095 cursors after its first repeat")
    func boundReached() {
        #expect(detectionPosition(tail: 0, loop: 4_097) == 4_097 + 4_095)
        #expect(detectionPosition(tail: 0, loop: 9) == 9 + 7)
    }

    @Test("cursors that never repeat are all taken, and a cursor never followed is not held")
    func noFalseRepeats() {
        var detector = _CursorLoopDetector<Int>()
        var refused: [Int] = []
        for cursor in 0..<200_000 {
            if !detector.insertIfNew(cursor * 2) { refused.append(cursor * 2) }
            if cursor % 9_973 == 0 { #expect(!detector.contains(cursor * 2 + 1)) }
        }
        #expect(refused.isEmpty)
    }

    @Test("memory: 8 recent cursors and log2 of the cursors followed")
    func memoryIsLogarithmic() {
        var detector = _CursorLoopDetector<Int>()
        for cursor in 0..<1_000 { _ = detector.insertIfNew(cursor) }
        #expect(detector.recent.count == 8 && detector.earlier.count == 10)
        for cursor in 1_000..<1_000_000 { _ = detector.insertIfNew(cursor) }
        #expect(detector.recent.count == 8 && detector.earlier.count == 20)
        #expect(detector.recent.sorted() == Array(999_992..<1_000_000))
    }

    @Test("a cursor repeated far back that does not loop is not held: it is followed again")
    func farRepeatWithoutLoop() {
        var detector = _CursorLoopDetector<Int>()
        for cursor in 0..<1_000 { _ = detector.insertIfNew(cursor) }
        // Cursor 5 went at position 5 into slot 1 (6 has one trailing zero), overwritten at 9.
        let fiveTaken = detector.insertIfNew(5)
        #expect(fiveTaken)
        // Cursor 511 is in slot 9 (512 = 2^9) until position 1,535: a repeat of it is caught.
        let repeatTaken = detector.insertIfNew(511)
        #expect(!repeatTaken)
        // So is one of the last 8.
        let recentTaken = detector.insertIfNew(995)
        #expect(!recentTaken)
    }
}
