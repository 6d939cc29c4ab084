import LiftboardWire

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
