import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire

/// The writing half of the boards API (POST, PUT, PATCH, DELETE under /api/boards) and its
/// history reads, without sockets (issue 39): the writes whose bodies are still arriving, what
/// each write does once read (`decide`: an answer now, or edits for the board's hub, or a job
/// for the store thread), and which waiting request a store report or job answers. The server
/// performs what it decides (Server+BoardsAPI.swift). Edits go through the board's hub, so
/// they are written like drops and reach every session as commits. Every write needs
/// `--admin-token` (Bearer) and an `If-Match: <version>` of the board.
struct BoardsAPI {
    /// Request bodies larger than this are refused with 413 (and the connection closed).
    static let maxBodyBytes = 1 << 20
    /// A declared body larger than this is not even read: 413 and the connection closes.
    static let maxDiscardedBodyBytes = 64 << 20

    /// Writes whose bodies are still arriving, by connection.
    private var requests: [OpaquePointer: APIRequest] = [:]
    /// Requests answered once the store reports on their commit or job.
    var pending = PendingAnswers()
    /// What the store thread did with the jobs, handed to the service thread.
    let jobResults = BoardJobResults()
    private var lastJob = 0

    // MARK: Reading a write

    /// What a write's request line and headers lead to.
    enum Begin {
        /// Its declared body is too large to even read: this answer, then the connection closes.
        case refuse(APIResponse)
        /// No body: decide now.
        case decide(APIRequest)
        /// Its body is read first (`receive`, then `bodyComplete`).
        case readBody
    }

    static var tooLarge: APIResponse { .error(413, .tooLarge, "request bodies are limited to \(maxBodyBytes) bytes") }

    mutating func begin(_ wsi: OpaquePointer, method: HTTPMethod, path: String, route: Route, contentLength: Int, chunked: Bool) -> Begin {
        if contentLength > Self.maxDiscardedBodyBytes { return .refuse(Self.tooLarge) }
        let request = APIRequest(method: method, path: path, route: route)
        request.tooLarge = contentLength > Self.maxBodyBytes
        if contentLength <= 0 && !chunked { return .decide(request) }
        requests[wsi] = request
        return .readBody
    }

    /// A chunk of `wsi`'s body.
    mutating func receive(_ wsi: OpaquePointer, _ chunk: UnsafeRawBufferPointer) {
        guard let r = requests[wsi], !r.tooLarge else { return }
        if r.body.count + chunk.count > Self.maxBodyBytes {
            // Read to the end (so that the client hears the 413 instead of a broken pipe).
            r.tooLarge = true
            r.body = []
            return
        }
        r.body.append(contentsOf: chunk)
    }

    /// `wsi`'s body has come: the request to decide, or to refuse with `tooLarge` when it is
    /// (nil: no write is reading a body there).
    mutating func bodyComplete(_ wsi: OpaquePointer) -> APIRequest? {
        requests.removeValue(forKey: wsi)
    }

    /// The connection closed: nothing more is read or written for it.
    mutating func forget(_ wsi: OpaquePointer) {
        requests[wsi] = nil
        pending.forget(wsi)
    }

    /// A job number for the store thread's work.
    mutating func newJob() -> Int {
        lastJob += 1
        return lastJob
    }

    // MARK: Deciding a write

    /// A board as a write sees it (its hub's).
    struct BoardFacts {
        var board: Board
        /// The durable version (`HubState.truth`).
        var truthVersion: Int
        var lastRevert: (version: Int, change: Change)?
    }

    /// Who sent the write.
    enum Writer {
        case admin
        /// Not the admin token; `configured`: the server has one.
        case refused(configured: Bool)
    }

    /// What a write does.
    enum Write {
        /// This answer, now.
        case respond(APIResponse)
        /// A board created by the store thread (201 once it has).
        case create(Board)
        /// The board's sessions closed and the board deleted by the store thread.
        case delete(board: String)
        /// The board's hub applies these changes, each a version after the board's (none: unchanged).
        case replace(board: String, changes: [Change])
        /// The board's hub applies `change` if the store has the board at `ifVersion`.
        case edit(board: String, Change, ifVersion: Int, status: UInt32)
        /// The board's hub applies the revert of its last commit.
        case undo(board: String, Change, ifVersion: Int)
    }

    /// What `request` (its body read) does: `writer` who sent it, `ifMatch` its `If-Match`
    /// version, `board` the boards there are.
    static func decide(_ request: APIRequest, writer: Writer, ifMatch: Int?, board: (String) -> BoardFacts?) -> Write {
        if case .refused(let configured) = writer {
            return .respond(.error(401, .unauthorized, configured ? "writes need Authorization: Bearer <admin token>"
                                   : "this server takes no writes: start it with --admin-token"))
        }
        if let refusal = request.route.refusal { return .respond(APIResponse(refusal)) }
        if request.route == .createBoard { return create(body: request.body, exists: { board($0)?.board.version }) }
        let boardID: String
        switch request.route {
        case .replaceBoard(let id), .deleteBoard(let id), .undo(let id), .edit(let id, _): boardID = id
        default: return .respond(.error(405, .methodNotAllowed, "\(request.method.rawValue) is not served on this path"))
        }
        guard let facts = board(boardID) else { return .respond(.error(404, .boardNotFound, "no board \(boardID)")) }
        let version = facts.board.version
        guard let expected = ifMatch else {
            return .respond(.error(400, .ifMatchRequired, "writes need If-Match: <the board's version>", version: version))
        }
        switch request.route {
        case .undo:
            return undo(facts, expected: expected)
        case .replaceBoard, .deleteBoard:
            guard expected == version else { return .respond(mismatch(facts.board, expected)) }
            return request.route == .deleteBoard(boardID) ? .delete(board: boardID) : replace(facts.board, body: request.body)
        case .edit(_, let edit):
            return self.edit(edit, of: facts.board, expected: expected, body: request.body, status: request.method == .post ? 201 : 200)
        default:
            return .respond(.error(405, .methodNotAllowed, "\(request.method.rawValue) is not served on this path"))
        }
    }

    static func mismatch(_ board: Board, _ expected: Int) -> APIResponse {
        .error(409, .versionMismatch, "the board is at version \(board.version), not \(expected)", version: board.version)
    }

    /// A body as a board file is read (the format, then `BoardLimits`), or its 400.
    static func board(from body: [UInt8]) -> Result<Board, HTTPError> {
        do throws(BoardError) {
            let board = try Wire.decodeBoard(body)
            try BoardLimits.check(board)
            return .success(board)
        } catch {
            return .failure(HTTPError(400, .badRequest, "\(error)"))
        }
    }

    /// POST /api/boards.
    static func create(body: [UInt8], exists: (String) -> Int?) -> Write {
        var board: Board
        switch self.board(from: body) {
        case .failure(let refusal): return .respond(APIResponse(refusal))
        case .success(let b): board = b
        }
        if let version = exists(board.id) {
            return .respond(.error(409, .boardExists, "there is a board \(board.id) already", version: version))
        }
        board.version = 0
        return .create(board)
    }

    /// PUT /api/boards/{id}: the difference as edits and moves, each a version, as sessions get them.
    static func replace(_ board: Board, body: [UInt8]) -> Write {
        var target: Board
        switch self.board(from: body) {
        case .failure(let refusal): return .respond(APIResponse(refusal))
        case .success(let b): target = b
        }
        guard target.id == board.id else {
            return .respond(.error(400, .badRequest, "id: the body's id (\(target.id)) is not the board's (\(board.id))"))
        }
        target.version = board.version
        // An item given without a color keeps the one it has (a board file would colour it by
        // its position, which a replace should not change).
        if case .array(let raw)? = (try? JSONParser.parse(body))?["sections"] {
            let uncoloured = Set(raw.flatMap { s -> [String] in
                guard case .array(let items)? = s["items"] else { return [] }
                return items.compactMap { i in
                    guard i["color"] == nil, case .string(let id)? = i["id"] else { return nil }
                    return id
                }
            })
            for s in target.sections.indices {
                for k in target.sections[s].items.indices where uncoloured.contains(target.sections[s].items[k].id) {
                    if let (cs, ci) = board.locate(item: target.sections[s].items[k].id) {
                        target.sections[s].items[k].color = board.sections[cs].items[ci].color
                    }
                }
            }
        }
        guard let changes = board.changes(to: target) else {
            return .respond(.error(409, .cannotReplace, "the board cannot become this one by edits and moves (layout, metrics, section order, "
                                   + "a pinned item's place, a removed height, or an item's kind, handle, leaf or collapsed differ): delete it and create it again", version: board.version))
        }
        return .replace(board: board.id, changes: changes)
    }

    /// An item or section edit, once the board and the If-Match are known.
    static func edit(_ edit: BoardEdit, of board: Board, expected: Int, body bytes: [UInt8], status: UInt32) -> Write {
        var body: JSONValue = .object([])
        if !bytes.isEmpty {
            do { body = try JSONParser.parse(bytes) } catch {
                return .respond(.error(400, .badRequest, "the body is not JSON: \(error)"))
            }
        }
        guard case .object(let fields) = body else { return .respond(.error(400, .badRequest, "the body must be a JSON object")) }
        let change: Change
        do {
            change = try editChange(edit, fields: fields, board: board)
        } catch {
            return .respond(error.response)
        }
        guard expected == board.version else { return .respond(mismatch(board, expected)) }
        if let refusal = conflict(change, on: board) { return .respond(refusal) }
        return .edit(board: board.id, change, ifVersion: expected, status: status)
    }

    /// POST /api/boards/{id}/undo: reverts the board's last commit (a drop or an edit, by
    /// anyone) as a new commit.
    static func undo(_ facts: BoardFacts, expected: Int) -> Write {
        let board = facts.board
        guard expected == board.version else { return .respond(mismatch(board, expected)) }
        guard facts.truthVersion == board.version, let last = facts.lastRevert, last.version == board.version else {
            return .respond(.error(409, .cannotUndo, board.version == 0 ? "the board has no commit to undo"
                                   : "the last commit is not known here (made before this server started, or still being saved)",
                                   version: board.version))
        }
        return .undo(board: board.id, last.change, ifVersion: expected)
    }

    /// An undo whose revert changes nothing.
    static func nothingToUndo(_ board: Board) -> APIResponse {
        .error(409, .cannotUndo, "reverting the last commit would change nothing", version: board.version)
    }

    // MARK: Answers the store makes

    /// The store reported on a commit: the API write waiting for it, if any, gets its answer
    /// (`pending.takeReady`); returns its connection, to be woken. `origin`: this process;
    /// `version`: a board's version now.
    mutating func answer(_ report: StoreReports.Report, origin: String, version: (String) -> Int?) -> OpaquePointer? {
        let response: (OpaquePointer, APIResponse)?
        switch report {
        case .landed(let d):
            guard d.origin == origin else { return nil }
            response = pending.resolveCommit(board: d.board, token: d.token) { .done($0, version: d.version) }
        case .unchanged(let board, let token):
            response = pending.resolveCommit(board: board, token: token) { _ in
                // The store's board was not at the If-Match version (another process wrote first).
                .error(409, .versionMismatch, "the board changed meanwhile (another server process wrote to it)", version: version(board))
            }
        case .refused(let board, let token, let reason):
            response = pending.resolveCommit(board: board, token: token) { _ in .error(409, .ruleRefused, reason) }
        case .failed(let board, let token, _):
            response = pending.resolveCommit(board: board, token: token) { _ in
                .error(503, .storeUnavailable, "the edit could not be saved; the board is as it was")
            }
        case .boards:
            return nil
        }
        return response?.0
    }

    /// The store thread did job `r`: the request waiting for it gets its answer; returns its
    /// connection, to be woken.
    mutating func answer(_ r: BoardJobResult) -> OpaquePointer? {
        pending.resolveJob(r.job) { status in
            switch r.outcome {
            case .created(let board): .done(status, version: board.version)
            case .exists: .error(409, .boardExists, "there is a board with this id already")
            case .deleted: .done(status, version: 0)
            case .failed(let reason): .error(503, .storeUnavailable, "the store could not do it: \(reason)")
            case .answer(let response): response
            }
        }?.0
    }

    // MARK: History

    /// GET /api/boards/{id}/history?since=V&limit=N: the versions after V (default 0), at most
    /// N (default 100, at most 1000).
    static func historyRange(since: String?, limit: String?) -> Result<(since: Int, limit: Int), HTTPError> {
        let since = since.map { Int($0) } ?? 0, limit = limit.map { Int($0) } ?? 100
        guard let since, since >= 0, let limit, (1...1000).contains(limit) else {
            return .failure(HTTPError(400, .badRequest, "since must be a version (0 or more) and limit 1 to 1000"))
        }
        return .success((since, limit))
    }

    /// The history's body: `commits` (every version after `since`), the first `limit` of them,
    /// oldest first, with author, time and change, and whether there are more.
    static func historyBody(board: String, commits all: [DurableCommit], limit: Int) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("board"); w.string(board)
        w.key("versions"); w.beginArray()
        for d in all.prefix(limit) {
            w.beginObject()
            w.key("version"); w.int(d.version); w.key("by"); w.string(d.by); w.key("at"); w.number(d.at)
            writeSigner(d, &w)
            if let change = d.change { w.key("change"); Wire.writeChange(change, into: &w) } else { w.key("change"); w.null() }
            w.endObject()
        }
        w.endArray()
        w.key("more"); w.bool(all.count > limit)
        w.endObject()
        return w.bytes
    }

    /// A durable commit's `user` and `name` (issue 42), null when it has none (a session
    /// without a user, or a commit made before users).
    static func writeSigner(_ d: DurableCommit, _ w: inout JSONWriter) {
        w.key("user"); if let u = d.user { w.string(u) } else { w.null() }
        w.key("name"); if let n = d.name { w.string(n) } else { w.null() }
    }
}

/// A write to the API whose body is still arriving (LWS_CALLBACK_HTTP_BODY).
final class APIRequest {
    let method: HTTPMethod
    let path: String
    let route: Route
    var body: [UInt8] = []
    /// Over the limit: the rest of the body is read and dropped, then 413.
    var tooLarge = false
    init(method: HTTPMethod, path: String, route: Route, body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.route = route
        self.body = body
    }
}

/// What the store thread did with a board created or deleted through the API, or a read.
struct BoardJobResult: Sendable {
    enum Outcome: Sendable {
        case created(Board)
        case exists
        case deleted
        case failed(String)
        /// A read's answer, made on the store thread.
        case answer(APIResponse)
    }
    var job: Int
    var outcome: Outcome
}

/// Results handed from the store thread to the service thread.
final class BoardJobResults: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var results: [BoardJobResult] = []
    func add(_ r: BoardJobResult) { lock.lock(); results.append(r); lock.unlock() }
    func take() -> [BoardJobResult] {
        lock.lock(); defer { lock.unlock() }
        let out = results
        results.removeAll()
        return out
    }
}

extension BoardsAPI {
    /// The `If-Match` header's version: `7`, `"7"` or `W/"7"` (nil: none of these).
    static func ifMatchVersion(_ header: String) -> Int? {
        var v = header.trimmingCharacters(in: .whitespaces)
        if v.hasPrefix("W/") { v.removeFirst(2) }
        if v.count >= 2, v.hasPrefix("\""), v.hasSuffix("\"") { v = String(v.dropFirst().dropLast()) }
        guard let n = Int(v), n >= 0 else { return nil }
        return n
    }
}
