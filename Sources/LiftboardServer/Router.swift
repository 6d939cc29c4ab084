import Foundation

/// An HTTP request's method, as the router tells them apart.
enum HTTPMethod: String, Equatable, Sendable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
    /// Anything else (HEAD, OPTIONS, ...): answered 405.
    case other = "OTHER"

    /// Whether requests with this method may carry a body the API reads.
    var isWrite: Bool { self == .post || self == .put || self == .patch || self == .delete }
}

/// An edit of a board's items or sections through the API (`/api/boards/{id}/items[/{item}]`,
/// `/sections[/{section}]`).
enum BoardEdit: Equatable, Sendable {
    case addItem
    case updateItem(String)
    case removeItem(String)
    case addSection
    case renameSection(String)
    case removeSection(String)
}

/// What an HTTP request asks for, from its method and path alone: no connection, no board, no
/// header. Who may ask (`access`) is part of the answer; whether the board exists, the token
/// is right or the body makes sense is for the handlers.
enum Route: Equatable, Sendable {
    /// `GET /healthz`
    case health
    /// `GET /api/boards`
    case listBoards
    /// `GET /api/boards/{id}`
    case board(String)
    /// `GET /api/boards/{id}/history`
    case history(String)
    /// `GET /api/boards/{id}/events`
    case events(String)
    /// `POST /api/boards`
    case createBoard
    /// `PUT /api/boards/{id}`
    case replaceBoard(String)
    /// `DELETE /api/boards/{id}`
    case deleteBoard(String)
    /// `POST /api/boards/{id}/undo`
    case undo(String)
    /// `POST|PATCH|DELETE /api/boards/{id}/items...|sections...`
    case edit(board: String, BoardEdit)
    /// `GET /embed`: the iframe mode's page (Public/embed.html), framed by `--embed-origin` only
    case embed
    /// `GET /embed/config`: the `--embed-origin` the embedded page talks to
    case embedConfig
    /// `GET` of anything outside `/api` and `/healthz`, and `GET /api/openapi.yaml`: a file
    /// under Public/ (this path, still percent-encoded).
    case staticFile(String)
    /// No such resource (404 `not_found`).
    case notFound(Access)
    /// The path is served, not with this method (405 `method_not_allowed`).
    case methodNotAllowed(Access, message: String)

    /// Who may ask.
    enum Access: Equatable, Sendable {
        /// Anyone who passed the Host check: static files, `/healthz`.
        case open
        /// `--token`, when the server has one.
        case read
        /// `--admin-token` (Bearer).
        case write
    }

    var access: Access {
        switch self {
        case .health, .staticFile, .embed, .embedConfig: .open
        case .listBoards, .board, .history, .events: .read
        case .createBoard, .replaceBoard, .deleteBoard, .undo, .edit: .write
        case .notFound(let a), .methodNotAllowed(let a, _): a
        }
    }

    /// The error a refused route answers.
    var refusal: HTTPError? {
        switch self {
        case .notFound: HTTPError(404, .notFound, "no such resource")
        case .methodNotAllowed(_, let message): HTTPError(405, .methodNotAllowed, message)
        default: nil
        }
    }
}

/// Method and path to `Route`: pure, tested by a table (RouterTests).
enum Router {
    static func route(_ method: HTTPMethod, _ path: String) -> Route {
        let underAPI = path == "/api" || path.hasPrefix("/api/")
        guard method != .other else {
            return .methodNotAllowed(underAPI ? .read : .open, message: "only GET is served")
        }
        guard underAPI else {
            if method != .get { return .methodNotAllowed(.open, message: "only GET is served here") }
            switch path {
            case "/healthz": return .health
            case "/embed": return .embed
            case "/embed/config": return .embedConfig
            default: return .staticFile(path)
            }
        }
        let access: Route.Access = method == .get ? .read : .write
        let notAllowed = Route.methodNotAllowed(access, message: "\(method.rawValue) is not served on this path")
        if path == "/api/openapi.yaml" { return method == .get ? .staticFile("/openapi.yaml") : notAllowed }
        if path == "/api/boards" || path == "/api/boards/" {
            switch method {
            case .get: return .listBoards
            case .post: return .createBoard
            default: return notAllowed
            }
        }
        guard path.hasPrefix("/api/boards/") else { return .notFound(access) }
        // Segments are percent-decoded: `/api/boards/a%20b` is board `a b`, as in a hello.
        let segments = path.dropFirst("/api/boards/".count).split(separator: "/", omittingEmptySubsequences: false)
            .map { String($0).removingPercentEncoding ?? String($0) }
        guard let board = segments.first, !segments.contains(where: \.isEmpty) else { return .notFound(access) }
        let rest = Array(segments.dropFirst())
        switch (rest.count, rest.first) {
        case (0, _):
            switch method {
            case .get: return .board(board)
            case .put: return .replaceBoard(board)
            case .delete: return .deleteBoard(board)
            default: return notAllowed
            }
        case (1, "history"): return method == .get ? .history(board) : notAllowed
        case (1, "events"): return method == .get ? .events(board) : notAllowed
        case (1, "undo"): return method == .post ? .undo(board) : notAllowed
        case (1, "items"): return method == .post ? .edit(board: board, .addItem) : notAllowed
        case (1, "sections"): return method == .post ? .edit(board: board, .addSection) : notAllowed
        case (2, "items"):
            switch method {
            case .patch: return .edit(board: board, .updateItem(rest[1]))
            case .delete: return .edit(board: board, .removeItem(rest[1]))
            default: return notAllowed
            }
        case (2, "sections"):
            switch method {
            case .patch: return .edit(board: board, .renameSection(rest[1]))
            case .delete: return .edit(board: board, .removeSection(rest[1]))
            default: return notAllowed
            }
        default:
            return .notFound(access)
        }
    }
}
