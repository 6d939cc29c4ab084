import LiftboardCore

/// What the simulated fingers do (`liftboard load --workload`).
public enum Workload: String, Sendable, CaseIterable {
    /// Long-press drags of 30 one-row moves down and back: every move passes a row, so each is
    /// answered by a `moved` and a `frame` (the worst case per move).
    case reorder
    /// A finger moving 4-8 px a frame: most moves only move the lifted snapshot, about one in
    /// ten passes a row; one gesture in five is a pan (it moves before the long press), the
    /// rest are drags that end a few rows away, so every drop commits.
    case realistic
}

/// One gesture: a press at `start`, then `moves` one frame apart (after the long press for a
/// drag, at once for a pan), then a release where the last move left the finger.
struct Gesture {
    var isDrag: Bool
    var start: Point
    var moves: [Point]
}

/// A small deterministic generator (SplitMix64): the same seed gives the same gestures on
/// every machine, so a scripted load costs the server the same instructions every run.
struct SeededRandom {
    private var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }
    mutating func next() -> UInt64 { generator.next() }
    /// Uniform in [lo, hi).
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53) }
    /// Uniform in lo...hi.
    mutating func int(_ lo: Int, _ hi: Int) -> Int { lo + Int(next() % UInt64(hi - lo + 1)) }
}

/// The gestures of one session, in order.
struct GestureScript {
    let workload: Workload
    let movesPerDrag: Int
    private var random: SeededRandom

    init(workload: Workload, movesPerDrag: Int, seed: UInt64) {
        self.workload = workload
        self.movesPerDrag = movesPerDrag
        random = SeededRandom(seed: seed)
    }

    /// Row r's center, as the server lays the load board out (header 32, rows 56 + 1).
    static func rowY(_ r: Double) -> Double { 60 + 57 * r }

    mutating func next() -> Gesture {
        switch workload {
        case .reorder:
            // Down 20 rows and back, over and over: every move passes one neighbour; 30 moves
            // end 10 rows down, so the drop commits.
            let moves = (1...movesPerDrag).map { k in Point(x: 100, y: Self.rowY(Double(20 - abs(20 - k % 40)))) }
            return Gesture(isDrag: true, start: Point(x: 100, y: Self.rowY(0)), moves: moves)
        case .realistic:
            let row = random.int(0, LoadBoards.rows - 1)
            var p = Point(x: (random.uniform(60, 340)).rounded(), y: (Self.rowY(Double(row)) + random.uniform(-12, 12)).rounded())
            let start = p
            // Toward the side with room: at most 60 moves of 8 px is 8.4 rows.
            let direction: Double = row < LoadBoards.rows / 2 ? 1 : -1
            let isDrag = random.int(1, 5) > 1
            // A drag travels at least 20 x 4 = 80 px, more than a row (57), so its drop commits.
            let count = isDrag ? random.int(20, 60) : random.int(8, 20)
            var moves: [Point] = []
            moves.reserveCapacity(count)
            for _ in 0..<count {
                p.x += random.uniform(-2, 2)
                p.y += direction * random.uniform(4, 8)
                moves.append(Point(x: (p.x * 100).rounded() / 100, y: (p.y * 100).rounded() / 100))
            }
            return Gesture(isDrag: isDrag, start: start, moves: moves)
        }
    }
}
