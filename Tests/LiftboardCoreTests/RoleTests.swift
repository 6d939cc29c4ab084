import Testing
@testable import LiftboardCore

/// Roles in the gesture (issue 42): what `view`, `move`, `edit` and `admin` sessions may do,
/// rule by rule. Boards: TrashTests' (todo a, b, c; done d; bin, a trash) and PaletteTests'
/// (templates, a palette: t1, t2; todo a; doing, max 1).
@Suite struct RoleTests {
    static let trash = TrashTests.board
    static let palette = PaletteTests.board

    static func person(_ role: Role) -> Person { Person(user: "u-\(role.rawValue)", name: "The \(role.rawValue)r", role: role) }

    func driver(_ board: Board, _ role: Role) -> Driver { Driver(board, person: Self.person(role)) }

    func forbidden(_ d: Driver) -> Bool { d.errors.contains(.roleForbids) }

    // MARK: A press

    @Test("a press lifts for move, edit and admin; for view it is recognized and lifts nothing", arguments: Role.allCases)
    func press(_ role: Role) {
        var d = driver(Self.trash, role)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 180), at: 0)
        if role == .view {
            #expect(d.lifts == 0 && d.commits.isEmpty && d.order == [["a", "b", "c"], ["d"], []])
            #expect(d.session.nextDeadline == nil && !d.session.isDragging)
            // No error: a press that lifts nothing is answered as any refused lift (the page's
            // predicted lift is undone by a frame acking it without a lift).
            #expect(d.errors.isEmpty)
        } else {
            #expect(d.lifts == 1 && d.ownCommits.map(\.change) == [.insert(id: "a", section: "todo", after: "c", index: 2)])
        }
    }

    @Test("a view session scrolls and pans as any other")
    func viewScrollsAndPans() {
        var d = Driver(Fixtures.longList(40), person: Self.person(.view))
        d.send(.wheel(dx: 0, dy: 250), at: 10)
        #expect(d.session.scrollY == 250)
        d.send(.down(pointer: 1, at: Point(x: 50, y: 500), kind: .touch), at: 100)
        for k in 1...10 { d.send(.move(pointer: 1, at: Point(x: 50, y: 500 - 20 * Double(k))), at: 100 + 10 * Double(k)) }
        d.send(.up(pointer: 1, at: Point(x: 50, y: 300)), at: 210)
        #expect((d.session.scrollY ?? 0) >= 450)
        #expect(d.errors.isEmpty && d.lifts == 0)
    }

    @Test("a press on a drag handle lifts nothing for view either")
    func viewHandle() {
        let board = Board(id: "h", sections: [Section(id: "s", items: [Item(id: "a", handle: .trailing), Item(id: "b")])])
        var d = Driver(board, person: Self.person(.view))
        d.send(.down(pointer: 1, at: Point(x: 390, y: 60), kind: .mouse), at: 0)
        #expect(d.lifts == 0 && !d.session.isDragging)
        var e = Driver(board, person: Self.person(.move))
        e.send(.down(pointer: 1, at: Point(x: 390, y: 60), kind: .mouse), at: 0)
        #expect(e.lifts == 1)
    }

    // MARK: The keyboard

    @Test("a key reorder is role_forbids for view and works for the others", arguments: Role.allCases)
    func key(_ role: Role) {
        var d = driver(Self.trash, role)
        d.send(.key("Tab"), at: 0)  // focus on a
        d.send(.key(" "), at: 10)
        d.send(.key("ArrowDown"), at: 20)
        d.send(.key(" "), at: 30)
        if role == .view {
            #expect(forbidden(d) && d.lifts == 0 && d.commits.isEmpty)
            // The session goes on: the focus still moves.
            #expect(d.announcements.contains { $0.hasPrefix("b, position 2") })
        } else {
            #expect(!forbidden(d) && d.ownCommits.map(\.change) == [.insert(id: "a", section: "todo", after: "b", index: 1)])
        }
    }

    // MARK: Move to…

    @Test("moveTo is role_forbids for view and moves for the others", arguments: Role.allCases)
    func moveTo(_ role: Role) {
        var d = driver(Self.trash, role)
        d.send(.moveTo(id: "a", section: "done", place: .last), at: 10)
        if role == .view {
            #expect(forbidden(d) && d.commits.isEmpty && d.order == [["a", "b", "c"], ["d"], []])
        } else {
            #expect(!forbidden(d) && d.order == [["b", "c"], ["d", "a"], []])
        }
    }

    // MARK: Undo

    @Test("undo is role_forbids for view; the others undo their own commit", arguments: Role.allCases)
    func undo(_ role: Role) {
        var d = driver(Self.trash, role)
        d.send(.undo, at: 10)
        if role == .view {
            #expect(d.errors == [.roleForbids])
        } else {
            #expect(d.errors == [.cannotUndo])
            d.send(.moveTo(id: "a", section: "done", place: .last), at: 20)
            d.send(.undo, at: 30)
            #expect(d.ownCommits.count == 2 && d.order == [["a", "b", "c"], ["d"], []])
        }
    }

    // MARK: Tap-to-add

    @Test("a tap while another pointer presses is role_forbids for view; the others add the item to the drag", arguments: Role.allCases)
    func tapToAdd(_ role: Role) {
        var d = driver(Self.trash, role)
        d.send(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 0)
        d.send(.down(pointer: 2, at: Point(x: 50, y: 174), kind: .touch), at: 600)
        d.send(.up(pointer: 2, at: Point(x: 50, y: 174)), at: 650)
        let added = d.out.contains { if case .lift(1, "c", _, _, true) = $0 { true } else { false } }
        if role == .view {
            #expect(forbidden(d) && !added && d.lifts == 0)
        } else {
            #expect(!forbidden(d) && added)
        }
        d.send(.up(pointer: 1, at: Point(x: 50, y: 60)), at: 700)
        #expect(d.session.invariantViolations().isEmpty)
    }

    // MARK: A trash

    @Test("a trash removes for edit and admin; for move it is a refused place, shown forbidden, and nothing is removed", arguments: Role.allCases)
    func trashDrag(_ role: Role) {
        var d = driver(Self.trash, role)
        d.drag(from: Point(x: 50, y: 117), to: Point(x: 50, y: 340), at: 0)
        let shownForbidden = d.out.contains { if case .frame(let f) = $0 { f.snapshots.contains { $0.forbidden == true } } else { false } }
        switch role {
        case .view:
            #expect(d.commits.isEmpty && d.lifts == 0)
        case .move:
            #expect(shownForbidden)
            #expect(!d.ownCommits.contains { $0.change?.isEdit == true })
            // As over any refusing section, the drop lands where the live order has the item
            // (never in the trash): every item is still on the board.
            #expect(Set(d.order.joined()) == ["a", "b", "c", "d"] && d.order[2].isEmpty)
        case .edit, .admin:
            #expect(!shownForbidden && d.ownCommits.map(\.change) == [.removeItem("b")])
        }
    }

    @Test("Move to… a trash is role_forbids for move (and view), a removal for edit", arguments: Role.allCases)
    func trashMoveTo(_ role: Role) {
        var d = driver(Self.trash, role)
        d.send(.moveTo(id: "b", section: "bin", place: .last), at: 10)
        #expect(forbidden(d) == !role.includes(.edit))
        #expect(d.order == (role.includes(.edit) ? [["a", "c"], ["d"], []] : [["a", "b", "c"], ["d"], []]))
    }

    @Test("a keyboard drag of a move session passes the trash by")
    func trashKeyboard() {
        var d = driver(Self.trash, .move)
        d.send(.key("Tab"), at: 0)
        d.send(.key(" "), at: 10)
        for k in 0..<8 { d.send(.key("ArrowDown"), at: 20 + Double(k)) }
        d.send(.key(" "), at: 40)
        #expect(d.ownCommits.count == 1 && d.ownCommits.allSatisfy { $0.change?.isEdit == false })
        #expect(d.order == [["b", "c"], ["d", "a"], []])
    }

    // MARK: A palette

    @Test("a palette's item lifts for edit and admin; for move and view it does not lift", arguments: Role.allCases)
    func palettePress(_ role: Role) {
        var d = driver(Self.palette, role)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 220), at: 0)
        if role.includes(.edit) {
            #expect(d.ownCommits.map(\.change) == [.copyItem(id: "t1", as: "t1~1", section: "todo", after: "a", index: 1)])
        } else {
            #expect(d.lifts == 0 && d.commits.isEmpty && d.order == [["t1", "t2"], ["a"], []])
        }
        // A move session still drags what is not a palette's.
        if role == .move {
            d.drag(from: Point(x: 50, y: 174 + 8), to: Point(x: 50, y: 260), at: 2000)
            #expect(d.lifts == 1 && d.ownCommits.count == 1)
        }
    }

    @Test("a copy out of a palette by key or Move to… is role_forbids below edit", arguments: Role.allCases)
    func paletteKeyAndMoveTo(_ role: Role) {
        var d = driver(Self.palette, role)
        d.send(.key("Tab"), at: 0)  // focus on t1
        d.send(.key(" "), at: 10)
        #expect((d.lifts == 0) == !role.includes(.edit))
        d.send(.key("Escape"), at: 20)
        d.send(.moveTo(id: "t2", section: "todo", place: .last), at: 30)
        #expect(forbidden(d) == !role.includes(.edit))
        #expect(d.ownCommits.count == (role.includes(.edit) ? 1 : 0))
    }

    // MARK: Signed commits

    @Test("a commit carries the session's user and name beside by; without a user, neither")
    func signedCommits() {
        var d = Driver(Self.trash, person: Person(user: "u-ada", name: "Ada", role: .edit))
        d.send(.moveTo(id: "a", section: "done", place: .last), at: 10)
        let c = d.ownCommits.first
        #expect(c?.by == "test" && c?.user == "u-ada" && c?.name == "Ada")
        var open = Driver(Self.trash)
        open.send(.moveTo(id: "a", section: "done", place: .last), at: 10)
        #expect(open.ownCommits.first.map { $0.user == nil && $0.name == nil } == true)
        // A name without a user (no token names one) is not shown.
        var nameless = Driver(Self.trash, person: Person(name: "Ada", role: .edit))
        nameless.send(.moveTo(id: "a", section: "done", place: .last), at: 10)
        #expect(nameless.ownCommits.first.map { $0.user == nil && $0.name == nil } == true)
    }

    // MARK: A renewed token

    @Test("a renewal to view mid-drag cancels the drag, nothing commits, and the pointer lifts nothing more")
    func renewalToViewCancelsTheDrag() {
        var d = driver(Self.trash, .edit)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 180), at: 0, release: false)
        #expect(d.session.isDragging)
        let out = d.session.renew(person: Self.person(.view), at: 900)
        #expect(out.contains { if case .drop(1, "a", _, true) = $0 { true } else { false } })
        #expect(!d.session.isDragging && d.session.person.role == .view && d.session.invariantViolations().isEmpty)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 200)), at: 950)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 200)), at: 1000)
        d.send(.undo, at: 1100)
        #expect(d.commits.isEmpty && d.errors == [.roleForbids] && d.order == [["a", "b", "c"], ["d"], []])
    }

    @Test("a renewal from edit to move mid-drag makes the trash a refused place; a renewal back makes it a trash again")
    func renewalToMoveRefusesTheTrash() {
        var d = driver(Self.trash, .edit)
        d.drag(from: Point(x: 50, y: 117), to: Point(x: 50, y: 250), at: 0, release: false)
        _ = d.session.renew(person: Self.person(.move), at: 800)
        d.send(.move(pointer: 1, at: Point(x: 50, y: 340)), at: 850)
        d.send(.up(pointer: 1, at: Point(x: 50, y: 340)), at: 900)
        #expect(!d.ownCommits.contains { $0.change?.isEdit == true } && Set(d.order.joined()) == ["a", "b", "c", "d"])
        _ = d.session.renew(person: Self.person(.edit), at: 2000)
        d.drag(from: Point(x: 50, y: 60), to: Point(x: 50, y: 340), at: 3000)
        #expect(d.ownCommits.last?.change == .removeItem("a"))
    }

    // MARK: Shared views

    @Test("a view session that shares an edit session's view keeps its own role (and the other its own)")
    func sharedViewKeepsTheRole() {
        let b = Self.trash
        let hello = ClientEvent.hello(Hello(board: b.id, viewport: Viewport(w: 400, h: 600), config: SessionConfig()))
        var editor = Session(id: "e", person: Self.person(.edit)), viewer = Session(id: "v", person: Self.person(.view))
        _ = editor.handle(hello, at: 0) { _ in b }
        _ = viewer.handle(hello, at: 0) { _ in b }
        let shared = viewer.shareView(with: editor)
        #expect(shared)
        _ = viewer.handle(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 10)
        let out = viewer.handle(.moveTo(id: "a", section: "done", place: .last), at: 700)
        #expect(!viewer.isDragging && out.contains { if case .error(.roleForbids, _) = $0 { true } else { false } })
        _ = editor.handle(.down(pointer: 1, at: Point(x: 50, y: 60), kind: .touch), at: 10)
        _ = editor.fire(at: 700)
        #expect(editor.isDragging)
    }
}
