import LiftboardCore
import LiftboardStore
import LiftboardWire
import Testing
@testable import LiftboardServer

/// The boards API's writes decided without a socket, a hub or a store: what each request does,
/// the refusals in the one error body, bodies read to their limit, and the answers the store's
/// reports and jobs make.
@Suite struct BoardsAPITests {
    /// "todo": a, b; "done": empty; at `version`.
    static func board(version: Int = 3) -> Board {
        var b = Board(id: "b", sections: [Section(id: "todo", items: [Item(id: "a"), Item(id: "b")]), Section(id: "done", items: [])])
        b.version = version
        return b
    }

    func decide(_ method: HTTPMethod, _ path: String, _ body: String = "", writer: BoardsAPI.Writer = .admin, ifMatch: Int? = 3,
                facts: BoardsAPI.BoardFacts = .init(board: board(), truthVersion: 3)) -> BoardsAPI.Write {
        let request = APIRequest(method: method, path: path, route: Router.route(method, path), body: Array(body.utf8))
        return BoardsAPI.decide(request, writer: writer, ifMatch: ifMatch) { $0 == facts.board.id ? facts : nil }
    }

    /// The status and body of an answer made now (nil: the write goes on).
    func refusal(_ w: BoardsAPI.Write) -> (UInt32, String)? {
        guard case .respond(let r) = w else { return nil }
        return (r.status, String(decoding: r.body, as: UTF8.self))
    }

    @Test func aWriteWithoutTheAdminTokenIsRefusedAndSaysWhatWouldAllowIt() {
        #expect(refusal(decide(.delete, "/api/boards/b", writer: .refused(configured: true)))! ==
            (401, #"{"error":{"code":"unauthorized","message":"writes need Authorization: Bearer <admin token>"}}"#))
        #expect(refusal(decide(.delete, "/api/boards/b", writer: .refused(configured: false)))! ==
            (401, #"{"error":{"code":"unauthorized","message":"this server takes no writes: start it with --admin-token"}}"#))
    }

    @Test func aWriteToNoBoardOrNoPathOrWithoutIfMatchIsRefusedBeforeItsBodyIsLookedAt() {
        #expect(refusal(decide(.post, "/api/boards/b/nope", "not json"))! == (404, #"{"error":{"code":"not_found","message":"no such resource"}}"#))
        #expect(refusal(decide(.delete, "/api/boards/x"))! == (404, #"{"error":{"code":"board_not_found","message":"no board x"}}"#))
        #expect(refusal(decide(.post, "/api/boards/b/items", "not json", ifMatch: nil))!
            == (400, #"{"error":{"code":"if_match_required","message":"writes need If-Match: <the board's version>","version":3}}"#))
    }

    @Test func aDeleteOrAReplaceAtAnotherVersionIsAMismatchAndAtTheBoardsGoesOn() {
        #expect(refusal(decide(.delete, "/api/boards/b", ifMatch: 2))!
            == (409, #"{"error":{"code":"version_mismatch","message":"the board is at version 3, not 2","version":3}}"#))
        guard case .delete(let id) = decide(.delete, "/api/boards/b") else { Issue.record("not a delete"); return }
        #expect(id == "b")
        let same = String(decoding: Wire.encodeBoard(Self.board()), as: UTF8.self)
        guard case .replace(let rid, let changes) = decide(.put, "/api/boards/b", same) else { Issue.record("not a replace"); return }
        #expect(rid == "b" && changes.isEmpty)
        let other = same.replacingOccurrences(of: #""id":"b","#, with: #""id":"c","#)
        #expect(refusal(decide(.put, "/api/boards/b", other))?.1 == #"{"error":{"code":"bad_request","message":"id: the body's id (c) is not the board's (b)"}}"#)
    }

    @Test func anEditIsAChangeForTheHubAt201WhenItAddsAnd200Else() {
        guard case .edit(let id, let change, let ifVersion, let status) = decide(.post, "/api/boards/b/items", #"{"id":"n","label":"New"}"#) else {
            Issue.record("not an edit"); return
        }
        #expect(id == "b" && ifVersion == 3 && status == 201)
        guard case .addItem(let item, let section, _, _) = change else { Issue.record("not an added item"); return }
        #expect(item.id == "n" && section == "todo")
        guard case .edit(_, _, _, let patched) = decide(.patch, "/api/boards/b/items/a", #"{"label":"A"}"#) else { Issue.record("not an edit"); return }
        #expect(patched == 200)
        guard case .edit(_, _, _, let removed) = decide(.delete, "/api/boards/b/items/a") else { Issue.record("not an edit"); return }
        #expect(removed == 200)
    }

    @Test func aBadEditBodyOrOneTheBoardCannotTakeIsRefusedWithItsReason() {
        #expect(refusal(decide(.post, "/api/boards/b/items", "{"))?.1.hasPrefix(#"{"error":{"code":"bad_request","message":"the body is not JSON: "#) == true)
        #expect(refusal(decide(.post, "/api/boards/b/items", "[]"))?.1 == #"{"error":{"code":"bad_request","message":"the body must be a JSON object"}}"#)
        #expect(refusal(decide(.patch, "/api/boards/b/items/a", #"{"zzz":1}"#))?.1
            == #"{"error":{"code":"bad_request","message":"body.zzz: unknown field (expected accent, badge, color, detail, height, image, label, movable, tags)"}}"#)
        #expect(refusal(decide(.post, "/api/boards/b/items", #"{"id":"a"}"#))! == (409, #"{"error":{"code":"item_exists","message":"the board has an item a already"}}"#))
        #expect(refusal(decide(.delete, "/api/boards/b/sections/todo"))!
            == (409, #"{"error":{"code":"section_not_empty","message":"section todo has 2 items: remove or move them first"}}"#))
        #expect(refusal(decide(.patch, "/api/boards/b/items/zz", #"{"label":"Z"}"#))! == (404, #"{"error":{"code":"item_not_found","message":"no item zz on board b"}}"#))
        #expect(refusal(decide(.post, "/api/boards/b/items", #"{"id":"n"}"#, ifMatch: 1))?.0 == 409)
    }

    @Test func anUndoRevertsTheLastCommitKnownHereAndOnlyThat() {
        #expect(refusal(decide(.post, "/api/boards/b/undo", ifMatch: 0, facts: .init(board: Self.board(version: 0), truthVersion: 0)))
            .map { $0.1 } == #"{"error":{"code":"cannot_undo","message":"the board has no commit to undo","version":0}}"#)
        // Made before this server started, or still being saved: not known here.
        #expect(refusal(decide(.post, "/api/boards/b/undo"))?.0 == 409)
        let revert = Change.insert(id: "a", section: "todo", after: "b", index: 1)
        #expect(refusal(decide(.post, "/api/boards/b/undo", facts: .init(board: Self.board(), truthVersion: 2, lastRevert: (3, revert))))?.0 == 409)
        guard case .undo(let id, _, let ifVersion) = decide(.post, "/api/boards/b/undo", facts: .init(board: Self.board(), truthVersion: 3, lastRevert: (3, revert))) else {
            Issue.record("not an undo"); return
        }
        #expect(id == "b" && ifVersion == 3)
    }

    @Test func aNewBoardIsCreatedAtVersion0UnlessItsIdIsTaken() {
        let fresh = #"{"id":"n","sections":[{"id":"s","items":[{"id":"x"}]}]}"#
        guard case .create(let board) = decide(.post, "/api/boards", fresh, ifMatch: nil) else { Issue.record("not a create"); return }
        #expect(board.id == "n" && board.version == 0)
        let taken = #"{"id":"b","sections":[]}"#
        #expect(refusal(decide(.post, "/api/boards", taken, ifMatch: nil))!
            == (409, #"{"error":{"code":"board_exists","message":"there is a board b already","version":3}}"#))
        #expect(refusal(decide(.post, "/api/boards", "{}", ifMatch: nil))?.0 == 400)
    }

    @Test func aBodyIsReadToItsLimitThenRefusedWith413() {
        var api = BoardsAPI()
        let wsi = OpaquePointer(bitPattern: 0x1000)!
        let route = Router.route(.post, "/api/boards")
        guard case .refuse(let r) = api.begin(wsi, method: .post, path: "/api/boards", route: route,
                                               contentLength: BoardsAPI.maxDiscardedBodyBytes + 1, chunked: false) else {
            Issue.record("read"); return
        }
        #expect(String(decoding: r.body, as: UTF8.self) == #"{"error":{"code":"too_large","message":"request bodies are limited to 1048576 bytes"}}"#)
        guard case .decide = api.begin(wsi, method: .delete, path: "/api/boards/b", route: route, contentLength: 0, chunked: false) else {
            Issue.record("no body: decided at once"); return
        }
        let none = api.bodyComplete(wsi)
        #expect(none == nil)
        guard case .readBody = api.begin(wsi, method: .post, path: "/api/boards", route: route, contentLength: 0, chunked: true) else {
            Issue.record("chunked: read"); return
        }
        let chunk = [UInt8](repeating: 0x20, count: BoardsAPI.maxBodyBytes / 2 + 1)
        chunk.withUnsafeBytes { api.receive(wsi, $0) }
        let whole = api.bodyComplete(wsi)
        #expect(whole?.body.count == chunk.count)
        _ = api.begin(wsi, method: .post, path: "/api/boards", route: route, contentLength: 0, chunked: true)
        chunk.withUnsafeBytes { api.receive(wsi, $0); api.receive(wsi, $0) }
        let over = api.bodyComplete(wsi)
        #expect(over?.tooLarge == true && over?.body.isEmpty == true)
    }

    @Test func theStoresReportAnswersTheWriteWaitingForItsCommitAndNoOther() {
        var api = BoardsAPI()
        let a = OpaquePointer(bitPattern: 0x1000)!, b = OpaquePointer(bitPattern: 0x2000)!
        api.pending.awaitCommit(a, board: "b", token: 1, status: 201)
        api.pending.awaitCommit(b, board: "b", token: 2, status: 200)
        let landed = DurableCommit(board: "b", version: 4, by: "api", at: 0, change: nil, origin: "me", token: 1)
        let theirs = api.answer(.landed(landed), origin: "other", version: { _ in 4 })
        #expect(theirs == nil, "another process's token")
        let ours = api.answer(.landed(landed), origin: "me", version: { _ in 4 })
        #expect(ours == a)
        let r = api.pending.takeReady(a)
        #expect(r?.status == 201 && r.map { String(decoding: $0.body, as: UTF8.self) } == #"{"version":4,"changed":true}"#)
        let refused = api.answer(.refused(board: "b", token: 2, reason: "full"), origin: "me", version: { _ in 4 })
        #expect(refused == b)
        let refusal = api.pending.takeReady(b).map { String(decoding: $0.body, as: UTF8.self) }
        #expect(refusal == #"{"error":{"code":"rule_refused","message":"full"}}"#)
        let again = api.answer(.failed(board: "b", token: 2, reason: "x"), origin: "me", version: { _ in 4 })
        #expect(again == nil, "answered once")
        let job = api.newJob()
        api.pending.awaitJob(a, job: job, status: 201)
        let done = api.answer(BoardJobResult(job: job, outcome: .exists))
        #expect(done == a)
        let exists = api.pending.takeReady(a).map { String(decoding: $0.body, as: UTF8.self) }
        #expect(exists == #"{"error":{"code":"board_exists","message":"there is a board with this id already"}}"#)
    }

    @Test func historyAndIfMatchReadWhatTheyDocumentAndNothingElse() throws {
        #expect(try BoardsAPI.historyRange(since: nil, limit: nil).get() == (0, 100))
        #expect(try BoardsAPI.historyRange(since: "4", limit: "1000").get() == (4, 1000))
        for (since, limit) in [("-1", "1"), ("x", "1"), ("0", "0"), ("0", "1001")] {
            guard case .failure(let e) = BoardsAPI.historyRange(since: since, limit: limit) else { Issue.record("\(since) \(limit)"); continue }
            #expect(e.code == .badRequest)
        }
        let commits = (1...3).map { DurableCommit(board: "b", version: $0, by: "s1", at: 5, change: nil, origin: "p", token: $0) }
        #expect(String(decoding: BoardsAPI.historyBody(board: "b", commits: commits, limit: 2), as: UTF8.self)
            == #"{"board":"b","versions":[{"version":1,"by":"s1","at":5,"user":null,"name":null,"change":null},{"version":2,"by":"s1","at":5,"user":null,"name":null,"change":null}],"more":true}"#)
        #expect(["7", " \"7\"", "W/\"7\""].map(BoardsAPI.ifMatchVersion) == [7, 7, 7])
        #expect(["", "-1", "x", "\"7"].map(BoardsAPI.ifMatchVersion) == [nil, nil, nil, nil])
    }
}
