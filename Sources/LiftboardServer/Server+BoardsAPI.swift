import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardStore
import LiftboardWire

/// The boards API on the sockets: reads a write's headers and body, performs what `BoardsAPI`
/// decides (edits through the board's hub, jobs for the store thread), and writes answers.
extension Server {
    /// The request's method (lws keeps the path under the method's header token).
    func requestMethod(_ wsi: OpaquePointer) -> HTTPMethod {
        let methods: [(lws_token_indexes, HTTPMethod)] = [(WSI_TOKEN_GET_URI, .get), (WSI_TOKEN_POST_URI, .post), (WSI_TOKEN_PUT_URI, .put),
                                                          (WSI_TOKEN_PATCH_URI, .patch), (WSI_TOKEN_DELETE_URI, .delete)]
        return methods.first { lws_hdr_total_length(wsi, $0.0) > 0 }?.1 ?? .other
    }

    /// LWS_CALLBACK_HTTP of a write: answered at once without a body, else when it has come.
    func beginWrite(_ wsi: OpaquePointer, method: HTTPMethod, path: String, route: Route) -> Int32 {
        let length = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        switch api.begin(wsi, method: method, path: path, route: route, contentLength: length,
                         chunked: lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0) {
        case .refuse(let r):
            _ = send(wsi, r)
            // The rest of the body is never read: the connection closes.
            return -1
        case .decide(let request):
            return finishWrite(wsi, request)
        case .readBody:
            return 0
        }
    }

    /// LWS_CALLBACK_HTTP_BODY: a chunk of a write's body.
    func receiveBody(_ wsi: OpaquePointer, _ chunk: UnsafeRawBufferPointer) -> Int32 {
        api.receive(wsi, chunk)
        return 0
    }

    /// LWS_CALLBACK_HTTP_BODY_COMPLETION.
    func bodyComplete(_ wsi: OpaquePointer) -> Int32 {
        guard let r = api.bodyComplete(wsi) else { return 0 }
        if r.tooLarge {
            log(.warn, "api", session: nil, "\(r.method.rawValue) \(r.path): 413")
            return send(wsi, BoardsAPI.tooLarge)
        }
        return finishWrite(wsi, r)
    }

    private func finishWrite(_ wsi: OpaquePointer, _ request: APIRequest) -> Int32 {
        let what = "\(request.method.rawValue) \(request.path)"
        var writer: BoardsAPI.Writer = adminAccepted(wsi) ? .admin : .refused(configured: config.adminToken != nil)
        var admission = Admission(person: Person(role: .admin), expiresAt: nil, boards: nil)
        // With `--auth-keys`, the token's role and boards decide (Server+Auth.swift).
        if auth.usesKeys, let decided = admitRequest(wsi, route: request.route) {
            switch decided {
            case .failure(let refusal): return complete(wsi, .now(APIResponse(refusal.httpError)), what: "\(what) \(refusal.code)")
            case .success(let admitted): (writer, admission) = (.admin, admitted)
            }
        }
        let write = BoardsAPI.decide(request, writer: writer, ifMatch: ifMatch(wsi)) { id in
            hubs[id].map { BoardsAPI.BoardFacts(board: $0.board, truthVersion: $0.truth.version, lastRevert: $0.lastRevert) }
        }
        // A board created must be one the token names (its id is known once the body is read).
        if case .create(let board) = write, !admission.grants(board.id) {
            return complete(wsi, .now(APIResponse(AuthRefusal.token(.boardForbidden).httpError)), what: "\(what) board_forbidden")
        }
        return complete(wsi, perform(write, for: wsi, as: admission.person), what: what)
    }

    /// Does what a write was decided to do; its commits are signed by `person`'s user (issue 42:
    /// the request's token's; no user without tokens).
    private func perform(_ write: BoardsAPI.Write, for wsi: OpaquePointer, as person: Person) -> APIAnswer {
        switch write {
        case .respond(let r):
            return .now(r)
        case .create(let board):
            return scheduleBoardJob(wsi, status: 201) { store throws(StoreError) -> BoardJobResult.Outcome in
                if try store.board(id: board.id) != nil { return .exists }
                return .created(try store.seed(board))
            }
        case .delete(let id):
            if let hub = hubs[id] { closeBoard(hub, how: "through the API") }
            return scheduleBoardJob(wsi, status: 200) { store throws(StoreError) -> BoardJobResult.Outcome in
                _ = try store.deleteBoard(id: id)
                return .deleted
            }
        case .replace(let id, let changes):
            guard let hub = hubs[id] else { return .error(404, .boardNotFound, "no board \(id)") }
            let version = hub.board.version
            var last: (commit: Commit, token: Int)?
            for (k, change) in changes.enumerated() {
                guard let made = hub.edit(change, by: "api", person: person, ifVersion: version + k) else { break }
                last = made
            }
            guard let last else { return .now(.done(version: version, changed: false)) }
            return .afterCommit(board: id, token: last.token, status: 200)
        case .edit(let id, let change, let expected, let status):
            guard let hub = hubs[id] else { return .error(404, .boardNotFound, "no board \(id)") }
            guard let (_, token) = hub.edit(change, by: "api", person: person, ifVersion: expected) else {
                return .now(.done(version: hub.board.version, changed: false))
            }
            return .afterCommit(board: id, token: token, status: status)
        case .undo(let id, let change, let expected):
            guard let hub = hubs[id] else { return .error(404, .boardNotFound, "no board \(id)") }
            guard let (_, token) = hub.edit(change, by: "api", person: person, ifVersion: expected) else { return .now(BoardsAPI.nothingToUndo(hub.board)) }
            return .afterCommit(board: id, token: token, status: 200)
        }
    }

    /// Answers now, or later from HTTP_WRITEABLE.
    func complete(_ wsi: OpaquePointer, _ answer: APIAnswer, what: String) -> Int32 {
        switch answer {
        case .now(let r):
            if r.status >= 400 { log(.warn, "api", session: nil, "\(what): \(r.status)") }
            return send(wsi, r)
        case .afterCommit(let board, let token, let status):
            // Answered from HTTP_WRITEABLE once the store has it (or refused it).
            api.pending.awaitCommit(wsi, board: board, token: token, status: status)
            return 0
        case .afterJob(let job, let status):
            api.pending.awaitJob(wsi, job: job, status: status)
            return 0
        }
    }

    /// The store reported on a commit: an API write waiting for it gets its answer.
    func answerWrite(_ report: StoreReports.Report) {
        if let wsi = api.answer(report, origin: store.origin, version: { hubs[$0]?.board.version }) { lws_callback_on_writable(wsi) }
    }

    func send(_ wsi: OpaquePointer, _ r: APIResponse) -> Int32 {
        let headers = securityHeaders + [("cache-control:", "no-store")] + r.headers
        let names = headers.map { strdup($0.0) }, values = headers.map { strdup($0.1) }
        defer { names.forEach { free($0) }; values.forEach { free($0) } }
        let rc = names.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { np in
            values.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { vp in
                r.body.withUnsafeBufferPointer { bp in
                    clws_http_respond(wsi, r.status, "application/json", np.baseAddress, vp.baseAddress, Int32(headers.count),
                                      bp.baseAddress, bp.count)
                }
            }
        }
        return rc != 0 ? -1 : 0
    }

    /// Whether the request carries `Authorization: Bearer <--admin-token>`.
    func adminAccepted(_ wsi: OpaquePointer) -> Bool {
        guard let expected = config.adminToken, let auth = header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION) else { return false }
        return Authenticator.same(auth, "Bearer \(expected)")
    }

    /// The `If-Match` version: `7`, `"7"` or `W/"7"`.
    func ifMatch(_ wsi: OpaquePointer) -> Int? {
        header(wsi, WSI_TOKEN_HTTP_IF_MATCH).flatMap(BoardsAPI.ifMatchVersion)
    }

    /// GET /api/boards/{id}/history?since=V&limit=N, read on the store thread (a job: answered
    /// when it is done).
    func history(_ wsi: OpaquePointer, hub: Hub) -> APIAnswer {
        let since: Int, limit: Int
        switch BoardsAPI.historyRange(since: queryValue(wsi, "since"), limit: queryValue(wsi, "limit")) {
        case .failure(let refusal): return .now(APIResponse(refusal))
        case .success(let range): (since, limit) = range
        }
        let id = hub.board.id
        return scheduleBoardJob(wsi, status: 200) { store throws(StoreError) -> BoardJobResult.Outcome in
            .answer(APIResponse(status: 200, body: BoardsAPI.historyBody(board: id, commits: try store.commits(board: id, after: since), limit: limit)))
        }
    }

    private func scheduleBoardJob(_ wsi: OpaquePointer, status: UInt32,
                                  _ work: @escaping @Sendable (any Store) throws(StoreError) -> BoardJobResult.Outcome) -> APIAnswer {
        guard let writer = store.writer else { return .error(503, .storeUnavailable, "no store") }
        let job = api.newJob()
        let results = api.jobResults
        let box = ContextBox()
        if let context { box.set(context) }
        writer.perform { store in
            let outcome: BoardJobResult.Outcome
            do { outcome = try work(store) } catch { outcome = .failed("\(error)") }
            results.add(BoardJobResult(job: job, outcome: outcome))
            box.wake()
        }
        return .afterJob(job, status: status)
    }

    /// The store thread finished board jobs: hubs appear and the requests get their answers.
    func drainBoardJobs() {
        for r in api.jobResults.take() {
            if case .created(let board) = r.outcome, hubs[board.id] == nil {
                hubs[board.id] = Hub(board: board, server: self)
                log(.info, "board", session: nil, "\(board.id) created through the API")
            }
            if let wsi = api.answer(r) { lws_callback_on_writable(wsi) }
        }
    }
}
