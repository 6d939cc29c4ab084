import LiftboardWire

/// Every HTTP error the server writes, whatever answers it (the API, static files, a refused
/// upgrade, a connection refused before lws adopts it): one body,
/// `{"error": {"code", "message"}}`, with `version` (the board's current one) where it helps.
/// docs/protocol.md, "HTTP"; docs/openapi.yaml, `Error`.
struct HTTPError: Equatable, Sendable {
    var status: UInt32
    /// A machine-readable reason: `not_found`, `version_mismatch`, ...
    var code: String
    /// What a person reads.
    var message: String
    /// The board's version, for errors about one (409, 400 `if_match_required`).
    var version: Int?
    /// Extra response headers (name with its colon, lowercased): `retry-after:`, `allow:`.
    var headers: [String: String] = [:]

    init(_ status: UInt32, _ code: String, _ message: String, version: Int? = nil, headers: [String: String] = [:]) {
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
        w.key("code"); w.string(code); w.key("message"); w.string(message)
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
