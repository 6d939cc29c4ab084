import Testing
import LiftboardCore
import LiftboardWire
@testable import LiftboardScript

/// Seeded runs of many drags in a row: every drag reaches its place, and its commit's change is
/// the step's own words (or nothing, when the item was there already).
@Suite struct DragPropertyTests {
    static let boards = [
        #"{"id": "m", "list": {"rowHeight": 40, "spacing": 2}, "sections": [{"id": "s", "items": [{"id": "a", "height": 130}, {"id": "b"}, {"id": "p", "movable": false}, {"id": "c", "height": 75}, {"id": "d"}, {"id": "e", "height": 20}]}, {"id": "t", "items": []}, {"id": "u", "items": [{"id": "f"}, {"id": "q", "movable": false}, {"id": "g", "height": 300}]}]}"#,
        #"{"id": "g", "layout": "grid", "sections": [{"id": "x", "items": [{"id": "x0"}, {"id": "x1"}, {"id": "x2"}, {"id": "xp", "movable": false}, {"id": "x3"}, {"id": "x4"}, {"id": "x5"}]}, {"id": "y", "items": [{"id": "y0"}, {"id": "y1"}]}, {"id": "z", "items": []}, {"id": "w", "items": [{"id": "w0"}, {"id": "w1"}, {"id": "w2"}, {"id": "w3"}, {"id": "w4"}, {"id": "w5"}, {"id": "w6"}, {"id": "w7"}]}]}"#,
        // Columns (issue 24): four columns wider together than every viewport, one tall enough
        // to scroll, mixed heights, a pinned card and an empty column.
        #"{"id": "k", "layout": "columns", "columns": {"width": 200, "gap": 10}, "sections": [{"id": "a", "items": [\#((0..<18).map { #"{"id": "a\#($0)", "height": \#(30 + ($0 * 37) % 90)}"# }.joined(separator: ","))]}, {"id": "b", "items": [{"id": "b0"}, {"id": "bp", "movable": false}, {"id": "b1"}]}, {"id": "c", "items": []}, {"id": "d", "items": [{"id": "d0"}, {"id": "d1", "height": 120}]}]}"#,
        #"{"id": "l", "sections": [{"id": "s", "items": [\#((0..<40).map { #"{"id": "r\#($0)", "height": \#(30 + ($0 * 37) % 90)}"# }.joined(separator: ","))]}, {"id": "e", "items": []}, {"id": "t", "items": [\#((0..<15).map { #"{"id": "t\#($0)"}"# }.joined(separator: ","))]}]}"#,
    ]

    @Test(arguments: boards.indices, 0..<3)
    func everyDragCommitsTheChangeItsStepNames(_ which: Int, _ run: Int) throws {
        let board = try Wire.decodeBoard(Array(Self.boards[which].utf8))
        var movable: [String: Bool] = [:]
        for s in board.sections { for i in s.items { movable[i.id] = i.movable } }
        let ids = board.sections.flatMap { $0.items.filter(\.movable).map(\.id) }
        // Three viewports: a phone, a short landscape one, a wide one (more grid columns).
        let viewport = [Size(w: 400, h: 600), Size(w: 640, h: 360), Size(w: 900, h: 700)][run]
        var runner = try ScriptRunner(board: board, viewport: viewport, config: [])
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(which * 3 + run)
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(n))
        }
        var steps: [String] = []
        for k in 1...40 {
            let x = ids[next(ids.count)]
            let target: DragTarget
            if next(4) == 0 {
                target = .first(section: board.sections[next(board.sections.count)].id)
            } else {
                let others = ids.filter { $0 != x }
                target = .after(others[next(others.count)])
            }
            // Where the committed order has X now, in the change's words.
            let order = try #require(runner.driver.session.committedOrder)
            let sec = try #require(order.first { $0.items.contains(x) })
            let i = try #require(sec.items.firstIndex(of: x))
            let before = sec.items[..<i].last { movable[$0] ?? true }
            let there: Bool
            switch target {
            case .after(let y): there = before == y
            case .first(let s): there = sec.section == s && before == nil
            case .onto, .into, .afterAt: there = false  // this property drags lists only
            }
            steps.append("drag \(x) \(DragPilot.targetText(target))")
            let commitsBefore = runner.driver.commits.count
            let line = ScriptLine(number: k, text: "drag", step: .drag(item: x, to: target, cancel: false))
            let failure = try runner.run(line)
            #expect(failure == nil, "\(failure.map { TestReport.text(ScriptResult(path: "p", outcome: .failed($0), stream: [])) } ?? "")\nviewport \(Int(viewport.w)) \(Int(viewport.h))\n\(steps.joined(separator: "\n"))")
            let made = runner.driver.commits[commitsBefore...]
            if there {
                #expect(made.isEmpty)
                continue
            }
            #expect(made.count == 1)
            switch (target, made.first?.change) {
            case (.after(let y), .insert(let id, _, let after, _)?): #expect(id == x && after == y)
            case (.first(let s), .insert(let id, let section, let after, _)?): #expect(id == x && section == s && after == nil)
            default: Issue.record("drag \(x) \(DragPilot.targetText(target)) made \(made.map(\.change))")
            }
        }
        #expect(runner.driver.session.invariantViolations().isEmpty)
    }
}
