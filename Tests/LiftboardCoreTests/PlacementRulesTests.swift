import Testing
@testable import LiftboardCore

/// Placement rules (issue 23): kinds a section accepts, a section's `max`, palettes and trash
/// as the policy states them, and as a drag meets them in lists, grids, swap mode, the
/// keyboard and groups. Board (list, 400 × 600): todo a (feature), b (bug), c (feature);
/// bugs (accepts bug) x; doing (max `max`) e; done, empty.
@Suite struct PlacementRulesTests {
    static func board(max: Int = 1, layout: LayoutKind = .list) -> Board {
        Board(id: "rules", layout: layout, sections: [
            Section(id: "todo", title: "To do", items: [
                Item(id: "a", kind: "feature"), Item(id: "b", kind: "bug"), Item(id: "c", kind: "feature"),
            ]),
            Section(id: "bugs", title: "Bugs", items: [Item(id: "x", kind: "bug")], accepts: ["bug"]),
            Section(id: "doing", title: "Doing", items: [Item(id: "e", kind: "feature")], max: max),
            Section(id: "done", title: "Done", items: []),
        ])
    }

    /// The `forbidden` values the frames' snapshot entries carried, in order.
    static func forbidden(_ out: [ServerEvent]) -> [Bool] {
        var values: [Bool] = []
        for case .frame(let f) in out { values += f.snapshots.compactMap(\.forbidden) }
        return values
    }

    // MARK: The policy

    @Test func thePolicyChecksCopyThenAcceptsThenMax() {
        let rules = SectionRules(accepts: ["bug"], max: 2, copy: false)
        #expect(PlacementRules.refusal(rules, section: "s", holding: 2, kinds: ["bug"], entering: 0) == nil)  // moves inside are free
        #expect(PlacementRules.refusal(rules, section: "s", holding: 1, kinds: ["bug"], entering: 1) == nil)
        #expect(PlacementRules.refusal(rules, section: "s", holding: 2, kinds: ["bug"], entering: 1) == .full(section: "s", max: 2))
        #expect(PlacementRules.refusal(rules, section: "s", holding: 0, kinds: ["bug", nil], entering: 2) == .kind(section: "s", kind: nil))
        #expect(PlacementRules.refusal(SectionRules(copy: true), section: "p", holding: 3, kinds: ["bug"], entering: 1) == .palette(section: "p"))
        #expect(PlacementRules.refusal(SectionRules(drop: .remove), section: "t", holding: 0, kinds: [nil], entering: 1) == nil)
        #expect(Refusal.full(section: "doing", max: 1).description == "max: section \"doing\" holds at most 1 item")
        #expect(Refusal.kind(section: "bugs", kind: "feature").description.hasPrefix("accepts: "))
    }

    @Test func aBoardNamesTheFirstRuleAChangeBreaks() {
        let before = Self.board(max: 1)
        var over = before
        over.sections[2].items.append(over.sections[0].items.removeFirst())  // a into doing (max 1)
        #expect(over.ruleViolation(since: before) == .full(section: "doing", max: 1))
        var wrongKind = before
        wrongKind.sections[1].items.append(wrongKind.sections[0].items.removeFirst())  // a (feature) into bugs
        #expect(wrongKind.ruleViolation(since: before) == .kind(section: "bugs", kind: "feature"))
        var fine = before
        fine.sections[3].items.append(fine.sections[0].items.removeFirst())
        #expect(fine.ruleViolation(since: before) == nil)
        // An order that already broke a rule is not blamed on a change that leaves it alone.
        #expect(over.ruleViolation(since: over) == nil)
    }

    // MARK: Lists

    @Test func aFullColumnAndARefusingKindAreSkippedAndTheDropLandsBeyondThem() {
        var d = Driver(Self.board(max: 1))
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 250), at: 0, release: false)
        // Past b and c; over bugs (which takes bugs only) a waits at the end of todo.
        #expect(d.order == [["b", "c", "a"], ["x"], ["e"], []])
        #expect(Self.forbidden(d.out) == [true])
        #expect(d.announcements.last == "Bugs does not take feature items.")
        d.send(.move(pointer: 1, at: Point(x: 50, y: 330)), at: 900)  // over doing, full
        #expect(d.order == [["b", "c", "a"], ["x"], ["e"], []])
        #expect(d.announcements.last == "Doing is full: it holds at most 1 item.")
        d.send(.move(pointer: 1, at: Point(x: 50, y: 400)), at: 950)  // done's header, past its midpoint
        #expect(d.order == [["b", "c"], ["x"], ["e"], ["a"]])
        #expect(Self.forbidden(d.out) == [true, false])
        d.send(.up(pointer: 1, at: Point(x: 50, y: 400)), at: 1000)
        #expect(d.ownCommits.map(\.change) == [.insert(id: "a", section: "done", after: nil, index: 0)])
        // Back up: the rules apply as if bugs and doing were not there.
        d.drag(from: Point(x: 50, y: 410 - 57 + 28), to: Point(x: 50, y: 300), at: 2000, release: false)
        #expect(d.order == [["b", "c"], ["x"], ["e"], ["a"]])
        d.send(.move(pointer: 1, at: Point(x: 50, y: 140)), at: 2900)  // into todo's frame
        #expect(d.order == [["b", "c", "a"], ["x"], ["e"], []])
        d.send(.cancel(pointer: 1), at: 3000)
    }

    @Test func anAcceptedKindIsPlacedAndTheMovesInsideAFullColumnAreFree() {
        var d = Driver(Self.board(max: 1))
        d.drag(from: Point(x: 50, y: 117), to: Point(x: 50, y: 230), at: 0)  // b (a bug) into bugs
        #expect(d.ownCommits.map(\.change) == [.insert(id: "b", section: "bugs", after: nil, index: 0)])
        #expect(Self.forbidden(d.out).isEmpty)
        // doing holds its max: e still moves inside it, and out of it.
        var e = Driver(Self.board(max: 1))
        e.drag(from: Point(x: 50, y: 350), to: Point(x: 50, y: 420), at: 0)
        #expect(e.ownCommits.map(\.change) == [.insert(id: "e", section: "done", after: nil, index: 0)])
    }

    @Test func aGroupThatDoesNotFitIsRefusedWhereItsItemAloneFits() {
        var d = Driver(Self.board(max: 2))
        // a alone fits in doing (1 of 2)...
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 320), at: 0, release: false)
        #expect(d.order[2] == ["a", "e"])
        d.send(.cancel(pointer: 1), at: 1000)
        // ...a and c together do not.
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 2000)
        d.send(.advance, at: 2500)
        d.send(.down(pointer: 2, at: Point(x: 50, y: 174), kind: .touch), at: 2600)
        d.send(.up(pointer: 2, at: Point(x: 50, y: 174)), at: 2650)
        for (k, y) in [150.0, 250, 300, 320].enumerated() { d.send(.move(pointer: 1, at: Point(x: 50, y: y)), at: 2700 + Double(k) * 16) }
        #expect(d.order == [["b", "a"], ["x"], ["e"], []])
        #expect(d.announcements.last == "Doing is full: it holds at most 2 items.")
        d.send(.up(pointer: 1, at: Point(x: 50, y: 320)), at: 2800)
        #expect(d.ownCommits.map(\.change) == [.group(ids: ["a", "c"], section: "todo", after: "b", index: 1)])
    }

    @Test func aDropOnAPlaceACommitFilledMeanwhileIsRefusedByName() {
        // Two fingers of one session race for doing's last place: the second drop is refused.
        var d = Driver(Self.board(max: 2))
        d.drag(p: 1, from: Point(x: 50, y: 60), to: Point(x: 50, y: 320), at: 0, release: false)
        d.drag(p: 2, from: Point(x: 50, y: 117 - 57), to: Point(x: 50, y: 320 - 57), at: 100, release: false)
        #expect(d.order[2].count == 3)  // live, each drag sees a place left
        d.send(.up(pointer: 1, at: Point(x: 50, y: 320)), at: 1000)
        d.send(.up(pointer: 2, at: Point(x: 50, y: 263)), at: 1100)
        #expect(d.ownCommits.count == 1)
        #expect(d.errors == [.ruleRefused])
        #expect(d.order[2].count == 2)
        if case .error(_, let message)? = d.out.first(where: { if case .error = $0 { true } else { false } }) {
            #expect(message == "max: section \"doing\" holds at most 2 items")
        }
    }

    @Test func twoSessionsRacingForAColumnsLastPlaceLandOneAndRefuseTheOther() {
        // Each session sees doing (max 2) holding e; the hub hands each one the other's commit.
        var first = Driver(Self.board(max: 2)), second = Driver(Self.board(max: 2))
        first.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 320), at: 0, release: false)
        second.drag(from: Point(x: 50, y: 174), to: Point(x: 50, y: 320), at: 0, release: false)
        #expect(first.order[2].count == 2 && second.order[2].count == 2)
        first.send(.up(pointer: 1, at: Point(x: 50, y: 320)), at: 1000)
        let landed = first.ownCommits
        #expect(landed.count == 1)
        second.send(.external(landed[0]), at: 1001)
        #expect(second.order[2].count == 3)  // the live order keeps its drag where it was...
        #expect(Self.forbidden(second.out).last == true)  // ...now over a section that refuses it
        second.send(.up(pointer: 1, at: Point(x: 50, y: 320)), at: 1100)
        #expect(second.ownCommits.isEmpty && second.errors == [.ruleRefused])
        let doing = second.session.liveOrder?[2].items ?? []
        #expect(doing.count == 2 && doing.contains("a") && !doing.contains("c"))
    }

    // MARK: Grids, swap mode, the keyboard

    @Test func inAGridARefusedSectionsCellsHeaderAndSlotAreNoTargets() {
        // 3 columns of 120 at width 400: todo a b c (row 32–152), bugs x (184–304), doing e (336–456), done slot (488–608).
        var d = Driver(Self.board(max: 1, layout: .grid), viewport: Viewport(w: 400, h: 800))
        d.drag(from: Point(x: 60, y: 92), to: Point(x: 60, y: 244), at: 0, release: false)  // a over x
        #expect(d.order == [["a", "b", "c"], ["x"], ["e"], []])
        d.send(.move(pointer: 1, at: Point(x: 60, y: 396)), at: 900)  // over e, doing full
        #expect(d.order == [["a", "b", "c"], ["x"], ["e"], []])
        #expect(Self.forbidden(d.out) == [true])
        d.send(.move(pointer: 1, at: Point(x: 60, y: 540)), at: 950)  // done's slot
        #expect(d.order == [["b", "c"], ["x"], ["e"], ["a"]])
        d.send(.up(pointer: 1, at: Point(x: 60, y: 540)), at: 1000)
        #expect(d.ownCommits.map(\.change) == [.insert(id: "a", section: "done", after: nil, index: 0)])
    }

    @Test func aSwapDragLeavingItsSectionSkipsRefusedSections() {
        var config = SessionConfig()
        config.mode = .swap
        var d = Driver(Self.board(max: 1), config: config)
        d.drag(from: Point(x: 50, y: 174), to: Point(x: 50, y: 330), at: 0, release: false)  // c (a feature) down over doing
        #expect(d.order == [["a", "b", "c"], ["x"], ["e"], []])
        d.send(.move(pointer: 1, at: Point(x: 50, y: 420)), at: 900)
        #expect(d.order == [["a", "b"], ["x"], ["e"], ["c"]])
        d.send(.up(pointer: 1, at: Point(x: 50, y: 420)), at: 1000)
        #expect(d.ownCommits.map(\.change) == [.insert(id: "c", section: "done", after: nil, index: 0)])
    }

    @Test func theKeyboardPassesOverRefusedSections() {
        var d = Driver(Self.board(max: 1))
        d.send(.key("ArrowDown"), at: 0)  // focus a
        for (k, key) in [" ", "ArrowDown", "ArrowDown", "ArrowDown", " "].enumerated() { d.send(.key(key), at: Double(k + 1) * 100) }
        #expect(d.ownCommits.map(\.change) == [.insert(id: "a", section: "done", after: nil, index: 0)])
    }
}

/// Rules and the API's PUT (issue 23): a board replaced whole keeps the rules it has; changing
/// them is not something edits express.
@Suite struct PlacementRulesReplaceTests {
    @Test func aReplacementKeepsRulesAndRefusesToChangeThem() {
        let board = PlacementRulesTests.board(max: 2)
        var moved = board
        moved.sections[3].items.append(moved.sections[0].items.removeFirst())  // a to done
        var replaced = board
        for c in board.changes(to: moved) ?? [] { _ = replaced.apply(c) }
        #expect(board.changes(to: moved) != nil && replaced.sections == moved.sections)
        var newMax = board
        newMax.sections[2].max = 3
        #expect(board.changes(to: newMax) == nil)
        var newKind = board
        newKind.sections[0].items[0].kind = "bug"
        #expect(board.changes(to: newKind) == nil)
    }
}
