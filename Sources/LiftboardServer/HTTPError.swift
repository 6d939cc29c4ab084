import LiftboardWire

/// Every HTTP error the server writes, whatever answers it (the API, static files, a refused
/// upgrade, a connection refused before lws adopts it): one body,
/// `{"error": {"code", "message"}}`, with `version` (the board's current one) where it helps.
/// docs/protocol.md, "HTTP"; Public/openapi.yaml, `Error`.
struct HTTPError: Error, Equatable, Sendable {
    var status: UInt32
    /// A machine-readable reason: `not_found`, `version_mismatch`, ...
    var code: HTTPErrorCode
    /// What a person reads.
    var message: String
    /// The board's version, for errors about one (409, 400 `if_match_required`).
    var version: Int?
    /// Extra response headers (name with its colon, lowercased): `retry-after:`, `allow:`.
    var headers: [String: String] = [:]

    init(_ status: UInt32, _ code: HTTPErrorCode, _ message: String, version: Int? = nil, headers: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.version = version
        self.headers = headers
        if let version { self.headers["etag:"] = "\"\(version)\"" }
    }

    /// `{"error": {"code": …, "message": …, "version"?: …}}`
    var body: [UInt8] {
        var w = JSONWriter()
        w.beginObject(); w.key("error"); w.beginObject()
        w.key("code"); w.string(code.rawValue); w.key("message"); w.string(message)
        if let version { w.key("version"); w.int(version) }
        w.endObject(); w.endObject()
        return w.bytes
    }

    /// The headers in a stable order (by name).
    var sortedHeaders: [(String, String)] { headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    /// The status line's reason phrase.
    var reason: String { Self.reasonPhrases[status] ?? "Error" }

    /// The whole response as raw bytes, for answers written without lws's HTTP machinery
    /// (a refused upgrade's headers, a socket refused before lws adopts it).
    func rawResponse(extraHeaders: [(String, String)] = []) -> [UInt8] {
        let body = self.body
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        let all = [("content-type:", "application/json"), ("content-length:", "\(body.count)")] + extraHeaders + sortedHeaders
        for (name, value) in all { head += "\(name) \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    static let reasonPhrases: [UInt32: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        409: "Conflict", 413: "Content Too Large", 426: "Upgrade Required", 503: "Service Unavailable",
    ]
}

/// The `code` of an HTTP error body: every reason the server gives, each spelled once
/// (docs/protocol.md, "HTTP"; Public/openapi.yaml, `Error`).
enum HTTPErrorCode: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The request is malformed: a missing Host, a bad body, query or header value.
    case badRequest = "bad_request"
    /// An upgrade that is not a WebSocket one lws can take (wrong version, no key).
    case badUpgrade = "bad_upgrade"
    /// POST /api/boards with the id of a board that exists.
    case boardExists = "board_exists"
    /// No board with the path's id.
    case boardNotFound = "board_not_found"
    /// PUT of a board its current one cannot become by edits and moves.
    case cannotReplace = "cannot_replace"
    /// Undo with no last commit known here, or one whose revert changes nothing.
    case cannotUndo = "cannot_undo"
    /// The Host header names no host this server answers to (`--allow-host`).
    case forbiddenHost = "forbidden_host"
    /// A WebSocket from a page origin that may not open sessions (`--allow-origin`).
    case forbiddenOrigin = "forbidden_origin"
    /// A write without `If-Match: <version>`.
    case ifMatchRequired = "if_match_required"
    /// An item added with the id of one the board has.
    case itemExists = "item_exists"
    /// No item with the path's or body's id on the board.
    case itemNotFound = "item_not_found"
    /// The method is not served on this path.
    case methodNotAllowed = "method_not_allowed"
    /// No such path, file or resource.
    case notFound = "not_found"
    /// A section's placement rule refuses the edit.
    case ruleRefused = "rule_refused"
    /// A section added with the id of one the board has.
    case sectionExists = "section_exists"
    /// A section removed while it still holds items.
    case sectionNotEmpty = "section_not_empty"
    /// No section with the path's or body's id on the board.
    case sectionNotFound = "section_not_found"
    /// A token whose role falls short of the request (`--auth-keys`; issue 42).
    case roleForbids = "role_forbids"
    /// The store could not do the write (or there is none).
    case storeUnavailable = "store_unavailable"
    /// A request body over the API's limit.
    case tooLarge = "too_large"
    // Token refusals with `--auth-keys` (issue 42; LiftboardAuth's `TokenError.code`, spelled
    // alike), and a request that carries no token at all.
    case tokenRequired = "token_required"
    case tokenTooLarge = "token_too_large"
    case tokenInvalid = "token_invalid"
    case algorithmRefused = "algorithm_refused"
    case unknownKey = "unknown_key"
    case signatureInvalid = "signature_invalid"
    case claimInvalid = "claim_invalid"
    case tokenExpired = "token_expired"
    case tokenNotYetValid = "token_not_yet_valid"
    case audienceMismatch = "audience_mismatch"
    /// A valid token that does not name the board.
    case boardForbidden = "board_forbidden"
    /// A missing or wrong `--token` or `--admin-token`.
    case unauthorized = "unauthorized"
    /// The server is at its connection or session limit (with `retry-after`).
    case unavailable = "unavailable"
    /// The `If-Match` version is not the board's.
    case versionMismatch = "version_mismatch"

    /// The code as the body spells it (what a log line shows too).
    var description: String { rawValue }
}
