import Testing
@testable import LiftboardServer

/// Every path the server serves, and its neighbours that it does not, with every method: the
/// table is the router's specification.
@Suite struct RouterTests {
    typealias M = HTTPMethod
    static func notAllowedWrite(_ m: M) -> Route { .methodNotAllowed(.write, message: "\(m.rawValue) is not served on this path") }
    static let notAllowedRead = Route.methodNotAllowed(.read, message: "GET is not served on this path")

    static let table: [(M, String, Route)] = [
        // Outside the API: static files and the health check, GET only.
        (.get, "/", .staticFile("/")),
        (.get, "/index.html", .staticFile("/index.html")),
        (.get, "/js/app.js", .staticFile("/js/app.js")),
        (.get, "/healthz", .health),
        (.get, "/apix", .staticFile("/apix")),
        // The iframe mode: its page (framed by --embed-origin only) and the origin it talks to.
        (.get, "/embed", .embed),
        (.get, "/embed/config", .embedConfig),
        (.get, "/embed.html", .staticFile("/embed.html")),
        (.get, "/embed/other", .staticFile("/embed/other")),
        (.post, "/embed", .methodNotAllowed(.open, message: "only GET is served here")),
        (.post, "/index.html", .methodNotAllowed(.open, message: "only GET is served here")),
        (.delete, "/healthz", .methodNotAllowed(.open, message: "only GET is served here")),
        (.other, "/", .methodNotAllowed(.open, message: "only GET is served")),
        (.other, "/api/boards", .methodNotAllowed(.read, message: "only GET is served")),
        // Reads.
        (.get, "/api/boards", .listBoards),
        (.get, "/api/boards/", .listBoards),
        (.get, "/api/openapi.yaml", .staticFile("/openapi.yaml")),
        (.get, "/api/boards/demo", .board("demo")),
        (.get, "/api/boards/demo/history", .history("demo")),
        (.get, "/api/boards/demo/events", .events("demo")),
        (.get, "/api/boards/a%20b", .board("a b")),
        (.get, "/api/boards/a%2Fb/history", .history("a/b")),
        (.get, "/api", .notFound(.read)),
        (.get, "/api/", .notFound(.read)),
        (.get, "/api/nothing", .notFound(.read)),
        (.get, "/api/boards//history", .notFound(.read)),
        (.get, "/api/boards/demo/", .notFound(.read)),
        (.get, "/api/boards/demo/nothing", .notFound(.read)),
        (.get, "/api/boards/demo/history/1", .notFound(.read)),
        (.get, "/api/boards/demo/items", notAllowedRead),
        (.get, "/api/boards/demo/items/milk", notAllowedRead),
        (.get, "/api/boards/demo/undo", notAllowedRead),
        // Writes.
        (.post, "/api/boards", .createBoard),
        (.post, "/api/boards/", .createBoard),
        (.put, "/api/boards", notAllowedWrite(.put)),
        (.put, "/api/boards/demo", .replaceBoard("demo")),
        (.delete, "/api/boards/demo", .deleteBoard("demo")),
        (.post, "/api/boards/demo", notAllowedWrite(.post)),
        (.patch, "/api/boards/demo", notAllowedWrite(.patch)),
        (.post, "/api/boards/demo/undo", .undo("demo")),
        (.delete, "/api/boards/demo/undo", notAllowedWrite(.delete)),
        (.post, "/api/boards/demo/items", .edit(board: "demo", .addItem)),
        (.patch, "/api/boards/demo/items", notAllowedWrite(.patch)),
        (.patch, "/api/boards/demo/items/milk", .edit(board: "demo", .updateItem("milk"))),
        (.delete, "/api/boards/demo/items/milk", .edit(board: "demo", .removeItem("milk"))),
        (.delete, "/api/boards/demo/items/a%20b", .edit(board: "demo", .removeItem("a b"))),
        (.post, "/api/boards/demo/items/milk", notAllowedWrite(.post)),
        (.put, "/api/boards/demo/items/milk", notAllowedWrite(.put)),
        (.post, "/api/boards/demo/sections", .edit(board: "demo", .addSection)),
        (.patch, "/api/boards/demo/sections/todo", .edit(board: "demo", .renameSection("todo"))),
        (.delete, "/api/boards/demo/sections/todo", .edit(board: "demo", .removeSection("todo"))),
        (.post, "/api/boards/demo/history", notAllowedWrite(.post)),
        (.post, "/api/boards/demo/events", notAllowedWrite(.post)),
        (.put, "/api/openapi.yaml", notAllowedWrite(.put)),
        (.post, "/api", .notFound(.write)),
        (.post, "/api/nothing", .notFound(.write)),
        (.post, "/api/boards//items", .notFound(.write)),
        (.post, "/api/boards/demo/items/milk/more", .notFound(.write)),
        (.delete, "/api/boards/demo/nothing/x", .notFound(.write)),
    ]

    @Test("each method and path of the table routes as the table says", arguments: table.indices)
    func routes(_ k: Int) {
        let (method, path, expected) = Self.table[k]
        #expect(Router.route(method, path) == expected, "\(method.rawValue) \(path)")
    }

    @Test("reads need the token, writes the admin token, static files and /healthz nothing")
    func access() {
        #expect(Route.staticFile("/").access == .open && Route.health.access == .open)
        #expect(Route.embed.access == .open && Route.embedConfig.access == .open)
        #expect([Route.listBoards, .board("b"), .history("b"), .events("b")].allSatisfy { $0.access == .read })
        #expect([Route.createBoard, .replaceBoard("b"), .deleteBoard("b"), .undo("b"), .edit(board: "b", .addItem)]
            .allSatisfy { $0.access == .write })
    }

    @Test("refused routes answer 404 not_found or 405 method_not_allowed in the one error shape")
    func refusals() {
        #expect(Route.notFound(.read).refusal == HTTPError(404, .notFound, "no such resource"))
        let refusal = Router.route(.patch, "/api/boards/demo/items").refusal
        #expect(refusal?.status == 405 && refusal?.code == .methodNotAllowed)
        #expect(String(decoding: refusal!.body, as: UTF8.self)
            == #"{"error":{"code":"method_not_allowed","message":"PATCH is not served on this path"}}"#)
        #expect(Route.board("demo").refusal == nil)
    }

    @Test("every error code writes the body it wrote as a string literal, byte for byte")
    func everyCodeKeepsItsBody() {
        let spelled = ["bad_request", "bad_upgrade", "board_exists", "board_not_found", "cannot_replace", "cannot_undo",
                       "forbidden_host", "forbidden_origin", "if_match_required", "item_exists", "item_not_found",
                       "method_not_allowed", "not_found", "rule_refused", "section_exists", "section_not_empty",
                       "section_not_found", "role_forbids", "store_unavailable", "too_large", "token_required", "token_too_large",
                       "token_invalid", "algorithm_refused", "unknown_key", "signature_invalid", "claim_invalid", "token_expired",
                       "token_not_yet_valid", "audience_mismatch", "board_forbidden", "unauthorized", "unavailable", "version_mismatch"]
        #expect(HTTPErrorCode.allCases.map(\.rawValue) == spelled)
        for code in HTTPErrorCode.allCases {
            #expect(String(decoding: HTTPError(400, code, "why \"quoted\"").body, as: UTF8.self)
                == #"{"error":{"code":"\#(code.rawValue)","message":"why \"quoted\""}}"#)
            #expect("\(code)" == code.rawValue, "a log line shows the code as the body spells it")
        }
    }

    @Test("an error with a version carries it in the body and as the ETag")
    func versionedError() {
        let e = HTTPError(409, .versionMismatch, "stale", version: 7)
        #expect(String(decoding: e.body, as: UTF8.self) == #"{"error":{"code":"version_mismatch","message":"stale","version":7}}"#)
        #expect(e.headers["etag:"] == "\"7\"")
    }
}
