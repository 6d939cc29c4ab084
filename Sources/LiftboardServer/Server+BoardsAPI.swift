import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardWire

/// A write to the API whose body is still arriving (LWS_CALLBACK_HTTP_BODY).
final class APIRequest {
    let method: HTTPMethod
    let path: String
    let route: Route
    var body: [UInt8] = []
    /// Over the limit: the rest of the body is read and dropped, then 413.
    var tooLarge = false
    init(method: HTTPMethod, path: String, route: Route) { self.method = method; self.path = path; self.route = route }
}

/// An answer of the API: a status and a JSON body (errors are `HTTPError`'s body).
struct APIResponse: Sendable {
    var status: UInt32
    var body: [UInt8]
    var headers: [(String, String)] = []

    init(status: UInt32, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    init(_ error: HTTPError) {
        self.init(status: error.status, body: error.body, headers: error.sortedHeaders)
    }

    static func error(_ status: UInt32, _ code: HTTPErrorCode, _ message: String, version: Int? = nil) -> APIResponse {
        APIResponse(HTTPError(status, code, message, version: version))
    }

    /// A write that made version `version`.
    static func done(_ status: UInt32 = 200, version: Int, changed: Bool = true) -> APIResponse {
        var w = JSONWriter()
        w.beginObject(); w.key("version"); w.int(version); w.key("changed"); w.bool(changed); w.endObject()
        return APIResponse(status: status, body: w.bytes, headers: [("etag:", "\"\(version)\"")])
    }
}

/// The writing half of the boards API (POST, PUT, PATCH, DELETE under /api/boards): edits go
/// through the board's hub, so they are written like drops and reach every session as commits.
/// Every write needs `--admin-token` (Bearer) and an `If-Match: <version>` of the board.
extension Server {
    /// Request bodies larger than this are refused with 413 (and the connection closed).
    static let maxAPIBodyBytes = 1 << 20
    /// A declared body larger than this is not even read: 413 and the connection closes.
    static let maxDiscardedBodyBytes = 64 << 20

    /// The request's method (lws keeps the path under the method's header token).
    func requestMethod(_ wsi: OpaquePointer) -> HTTPMethod {
        let methods: [(lws_token_indexes, HTTPMethod)] = [(WSI_TOKEN_GET_URI, .get), (WSI_TOKEN_POST_URI, .post), (WSI_TOKEN_PUT_URI, .put),
                                                          (WSI_TOKEN_PATCH_URI, .patch), (WSI_TOKEN_DELETE_URI, .delete)]
        return methods.first { lws_hdr_total_length(wsi, $0.0) > 0 }?.1 ?? .other
    }

    /// LWS_CALLBACK_HTTP of a write: answered at once without a body, else when it has come.
    func beginWrite(_ wsi: OpaquePointer, method: HTTPMethod, path: String, route: Route) -> Int32 {
        let length = header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        if length > Self.maxDiscardedBodyBytes { return refuseTooLarge(wsi) }
        let request = APIRequest(method: method, path: path, route: route)
        request.tooLarge = length > Self.maxAPIBodyBytes
        if length <= 0 && lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) <= 0 { return finishWrite(wsi, request) }
        apiRequests[wsi] = request
        return 0
    }

    /// LWS_CALLBACK_HTTP_BODY: a chunk of a write's body.
    func receiveBody(_ wsi: OpaquePointer, _ chunk: UnsafeRawBufferPointer) -> Int32 {
        guard let r = apiRequests[wsi], !r.tooLarge else { return 0 }
        if r.body.count + chunk.count > Self.maxAPIBodyBytes {
            // Read to the end (so that the client hears the 413 instead of a broken pipe).
            r.tooLarge = true
            r.body = []
            return 0
        }
        r.body.append(contentsOf: chunk)
        return 0
    }

    /// LWS_CALLBACK_HTTP_BODY_COMPLETION.
    func bodyComplete(_ wsi: OpaquePointer) -> Int32 {
        guard let r = apiRequests.removeValue(forKey: wsi) else { return 0 }
        if r.tooLarge {
            log(.warn, "api", session: nil, "\(r.method.rawValue) \(r.path): 413")
            return send(wsi, .error(413, .tooLarge, "request bodies are limited to \(Self.maxAPIBodyBytes) bytes"))
        }
        return finishWrite(wsi, r)
    }

    private func refuseTooLarge(_ wsi: OpaquePointer) -> Int32 {
        let r = APIResponse.error(413, .tooLarge, "request bodies are limited to \(Self.maxAPIBodyBytes) bytes")
        _ = send(wsi, r)
        // The rest of the body is never read: the connection closes.
        return -1
    }

    private func finishWrite(_ wsi: OpaquePointer, _ request: APIRequest) -> Int32 {
        complete(wsi, write(wsi, request), what: "\(request.method.rawValue) \(request.path)")
    }

    /// Answers now, or later from HTTP_WRITEABLE.
    func complete(_ wsi: OpaquePointer, _ answer: APIAnswer, what: String) -> Int32 {
        switch answer {
        case .now(let r):
            if r.status >= 400 { log(.warn, "api", session: nil, "\(what): \(r.status)") }
            return send(wsi, r)
        case .afterCommit(let board, let token, let status):
            // Answered from HTTP_WRITEABLE once the store has it (or refused it).
            pendingAnswers.awaitCommit(wsi, board: board, token: token, status: status)
            return 0
        case .afterJob(let job, let status):
            pendingAnswers.awaitJob(wsi, job: job, status: status)
            return 0
        }
    }

    /// The store reported on a commit: an API write waiting for it gets its answer.
    func answerWrite(_ report: StoreReports.Report) {
        let response: (OpaquePointer, APIResponse)?
        switch report {
        case .landed(let d):
            guard d.origin == origin else { return }
            response = pendingAnswers.resolveCommit(board: d.board, token: d.token) { .done($0, version: d.version) }
        case .unchanged(let board, let token):
            response = pendingAnswers.resolveCommit(board: board, token: token) { _ in
                // The store's board was not at the If-Match version (another process wrote first).
                .error(409, .versionMismatch, "the board changed meanwhile (another server process wrote to it)",
                       version: hubs[board]?.board.version)
            }
        case .refused(let board, let token, let reason):
            response = pendingAnswers.resolveCommit(board: board, token: token) { _ in .error(409, .ruleRefused, reason) }
        case .failed(let board, let token, _):
            response = pendingAnswers.resolveCommit(board: board, token: token) { _ in
                .error(503, .storeUnavailable, "the edit could not be saved; the board is as it was")
            }
        case .boards:
            return
        }
        if let (wsi, _) = response { lws_callback_on_writable(wsi) }
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
        return auth == "Bearer \(expected)"
    }

    /// The `If-Match` version: `7`, `"7"` or `W/"7"`.
    func ifMatch(_ wsi: OpaquePointer) -> Int? {
        guard var v = header(wsi, WSI_TOKEN_HTTP_IF_MATCH)?.trimmingCharacters(in: .whitespaces) else { return nil }
        if v.hasPrefix("W/") { v.removeFirst(2) }
        if v.count >= 2, v.hasPrefix("\""), v.hasSuffix("\"") { v = String(v.dropFirst().dropLast()) }
        guard let n = Int(v), n >= 0 else { return nil }
        return n
    }

    /// Does a write (`request.route` is a write, or the 404/405 of a write method under /api).
    private func write(_ wsi: OpaquePointer, _ request: APIRequest) -> APIAnswer {
        guard adminAccepted(wsi) else {
            return .error(401, .unauthorized, config.adminToken == nil
                          ? "this server takes no writes: start it with --admin-token"
                          : "writes need Authorization: Bearer <admin token>")
        }
        if let refusal = request.route.refusal { return .now(APIResponse(refusal)) }
        if request.route == .createBoard { return createBoard(wsi, body: request.body) }
        let boardID: String
        switch request.route {
        case .replaceBoard(let id), .deleteBoard(let id), .undo(let id), .edit(let id, _): boardID = id
        default: return .error(405, .methodNotAllowed, "\(request.method.rawValue) is not served on this path")
        }
        guard let hub = hubs[boardID] else { return .error(404, .boardNotFound, "no board \(boardID)") }
        guard let expected = ifMatch(wsi) else {
            return .error(400, .ifMatchRequired, "writes need If-Match: <the board's version>", version: hub.board.version)
        }
        switch request.route {
        case .undo:
            return undoLast(hub, expected: expected)
        case .replaceBoard, .deleteBoard:
            guard expected == hub.board.version else {
                return .error(409, .versionMismatch, "the board is at version \(hub.board.version), not \(expected)", version: hub.board.version)
            }
            return request.route == .deleteBoard(boardID) ? deleteBoard(wsi, hub: hub) : replaceBoard(wsi, hub: hub, body: request.body)
        case .edit(_, let edit):
            return applyEdit(edit, to: hub, expected: expected, body: request.body, status: request.method == .post ? 201 : 200)
        default:
            return .error(405, .methodNotAllowed, "\(request.method.rawValue) is not served on this path")
        }
    }

    /// An item or section edit, once the board and the If-Match are known.
    private func applyEdit(_ edit: BoardEdit, to hub: Hub, expected: Int, body bytes: [UInt8], status: UInt32) -> APIAnswer {
        var body: JSONValue = .object([])
        if !bytes.isEmpty {
            do { body = try JSONParser.parse(bytes) } catch {
                return .error(400, .badRequest, "the body is not JSON: \(error)")
            }
        }
        guard case .object(let fields) = body else { return .error(400, .badRequest, "the body must be a JSON object") }
        let board = hub.board
        let change: Change
        do {
            change = try editChange(edit, fields: fields, board: board)
        } catch {
            return .now(error.response)
        }
        guard expected == board.version else {
            return .error(409, .versionMismatch, "the board is at version \(board.version), not \(expected)", version: board.version)
        }
        if let refusal = conflict(change, on: board) { return .now(refusal) }
        guard let (_, token) = hub.edit(change, by: "api", ifVersion: expected) else { return .now(.done(version: board.version, changed: false)) }
        return .afterCommit(board: board.id, token: token, status: status)
    }
}

/// What an API request gets: an answer now, or one once the store has done its part.
enum APIAnswer {
    case now(APIResponse)
    /// Once the store reports on the hub's commit `token` of `board` (a write).
    case afterCommit(board: String, token: Int, status: UInt32)
    /// Once the store thread has done job `job` (a board created or deleted, a history read).
    case afterJob(Int, status: UInt32)

    static func error(_ status: UInt32, _ code: HTTPErrorCode, _ message: String, version: Int? = nil) -> APIAnswer {
        .now(.error(status, code, message, version: version))
    }
}

extension Server {
    /// POST /api/boards/{id}/undo: reverts the board's last commit (a drop or an edit, by anyone)
    /// as a new commit.
    func undoLast(_ hub: Hub, expected: Int) -> APIAnswer {
        let board = hub.board
        guard expected == board.version else {
            return .error(409, .versionMismatch, "the board is at version \(board.version), not \(expected)", version: board.version)
        }
        guard hub.truth.version == board.version, let last = hub.lastRevert, last.version == board.version else {
            return .error(409, .cannotUndo, board.version == 0 ? "the board has no commit to undo"
                          : "the last commit is not known here (made before this server started, or still being saved)", version: board.version)
        }
        guard let (_, token) = hub.edit(last.change, by: "api", ifVersion: expected) else {
            return .error(409, .cannotUndo, "reverting the last commit would change nothing", version: board.version)
        }
        return .afterCommit(board: board.id, token: token, status: 200)
    }
}

/// A request the API refuses while it reads it.
struct APIFailure: Error {
    var response: APIResponse
}

/// API requests whose answer waits for the store: writes for their commit (by board and hub
/// token), board jobs and reads for the store thread (by job number); then the answers ready to
/// be written (from HTTP_WRITEABLE).
struct PendingAnswers {
    private struct CommitKey: Hashable { var board: String; var token: Int }
    private typealias Waiter = (wsi: OpaquePointer, status: UInt32)
    private var commits: [CommitKey: Waiter] = [:]
    private var jobs: [Int: Waiter] = [:]
    private var ready: [OpaquePointer: APIResponse] = [:]

    mutating func awaitCommit(_ wsi: OpaquePointer, board: String, token: Int, status: UInt32) {
        commits[CommitKey(board: board, token: token)] = (wsi, status)
    }

    /// Whether an API write waits for a commit: most commits are drops, which nothing waits
    /// for, and a lookup hashes the board's id.
    var awaitsCommits: Bool { !commits.isEmpty }

    mutating func awaitJob(_ wsi: OpaquePointer, job: Int, status: UInt32) {
        jobs[job] = (wsi, status)
    }

    /// Makes the answer of the write waiting for (board, token), if any; returns its connection.
    mutating func resolveCommit(board: String, token: Int, _ answer: (UInt32) -> APIResponse) -> (OpaquePointer, APIResponse)? {
        guard awaitsCommits, let w = commits.removeValue(forKey: CommitKey(board: board, token: token)) else { return nil }
        return settle(w, answer)
    }

    /// Makes the answer of the request waiting for `job`, if any; returns its connection.
    mutating func resolveJob(_ job: Int, _ answer: (UInt32) -> APIResponse) -> (OpaquePointer, APIResponse)? {
        guard let w = jobs.removeValue(forKey: job) else { return nil }
        return settle(w, answer)
    }

    private mutating func settle(_ w: Waiter, _ answer: (UInt32) -> APIResponse) -> (OpaquePointer, APIResponse) {
        let r = answer(w.status)
        ready[w.wsi] = r
        return (w.wsi, r)
    }

    mutating func takeReady(_ wsi: OpaquePointer) -> APIResponse? { ready.removeValue(forKey: wsi) }

    /// The connection closed: nothing is written to it any more.
    mutating func forget(_ wsi: OpaquePointer) {
        ready[wsi] = nil
        commits = commits.filter { $0.value.wsi != wsi }
        jobs = jobs.filter { $0.value.wsi != wsi }
    }
}
