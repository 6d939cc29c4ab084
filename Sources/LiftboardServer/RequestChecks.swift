import CLibWebSockets
import Foundation
import LiftboardWire

/// The checks every request passes before it is served (Host) and every WebSocket upgrade
/// before it gets a 101 (path, version, Origin, token, room): a refused client never holds a
/// session and always learns why.
extension Server {
    /// The `Host` header must name this server (`--allow-host`, by default the loopback names
    /// and the `--host` value): a page on another name that resolves to this machine (DNS
    /// rebinding) is refused, HTTP and WebSocket alike.
    func checkHost(_ wsi: OpaquePointer) -> HTTPError? {
        if config.allowAnyHost { return nil }
        guard let host = header(wsi, WSI_TOKEN_HOST) else {
            return HTTPError(400, .badRequest, "a Host header is required")
        }
        guard endpoint.allowedHosts.contains(HostCheck.name(of: host)) else {
            return HTTPError(403, .forbiddenHost, "this server does not answer to that Host (see --allow-host)")
        }
        return nil
    }

    /// Everything an upgrade must satisfy, in the order a client can fix it.
    func checkUpgrade(_ wsi: OpaquePointer, upgrade: String) -> HTTPError? {
        if let refusal = checkHost(wsi) { return refusal }
        guard upgrade.lowercased() == "websocket" else {
            return HTTPError(400, .badUpgrade, "only WebSocket upgrades are served")
        }
        let path = header(wsi, WSI_TOKEN_GET_URI) ?? ""
        let isEcho = config.echo && path == "/echo"
        guard path == "/ws" || isEcho else {
            return HTTPError(404, .notFound, "WebSockets are served on /ws")
        }
        guard header(wsi, WSI_TOKEN_VERSION) == "13" else {
            return HTTPError(426, .badUpgrade, "WebSocket version 13 is required",
                           headers: ["sec-websocket-version:": "13"])
        }
        guard header(wsi, WSI_TOKEN_KEY) != nil else {
            return HTTPError(400, .badUpgrade, "Sec-WebSocket-Key is missing")
        }
        if !originAllowed(wsi) {
            return HTTPError(403, .forbiddenOrigin, "this page's origin may not open sessions (see --allow-origin)")
        }
        if !isEcho, !auth.usesKeys, let token = config.token, !tokenAccepted(wsi: wsi, expected: token) {
            return HTTPError(401, .unauthorized, "a valid token is required")
        }
        if sessions.connections.count >= endpoint.budget.maxSessions {
            return HTTPError(503, .unavailable, "max sessions (\(endpoint.budget.maxSessions)) reached",
                           headers: ["retry-after:": "5"])
        }
        // Last: the one check that may cost a signature verification, and whose admission is
        // kept for the session.
        if !isEcho, auth.usesKeys { return admitUpgrade(wsi) }
        return nil
    }

    /// Writes a refusal as the answer to the request in progress, without completing the
    /// transaction (lws does that when the callback returns 1). Returns false when the write
    /// failed and the connection must close.
    func writeRefusal(_ wsi: OpaquePointer, _ r: HTTPError) -> Bool {
        let body = r.body
        var head = "HTTP/1.1 \(r.status) \(r.reason)\r\n"
        let headers = [("content-type:", "application/json"), ("content-length:", "\(body.count)")] + securityHeaders
            + [("cache-control:", "no-store")] + r.sortedHeaders
        for (name, value) in headers { head += "\(name) \(value)\r\n" }
        return body.withUnsafeBufferPointer { clws_http_write_raw(wsi, head, $0.baseAddress, $0.count) } == 0
    }
}

/// Host header names.
enum HostCheck {
    /// The name part of a Host header value, lowercased: `127.0.0.1:8080` gives `127.0.0.1`,
    /// `[::1]:8080` gives `[::1]`, `Example.com.` gives `example.com`.
    static func name(of host: String) -> String {
        var h = host.lowercased()
        if h.hasPrefix("[") {
            if let end = h.firstIndex(of: "]") { h = String(h[...end]) }
        } else if let colon = h.lastIndex(of: ":") {
            h = String(h[..<colon])
        }
        if h.hasSuffix(".") { h.removeLast() }
        return h
    }

    /// The names the server answers to: `localhost`, `127.0.0.1`, `[::1]`, the `--host` value
    /// and its numeric address, and each `--allow-host`.
    static func allowed(host: String, numeric: ListenAddress?, extra: [String]) -> Set<String> {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        for h in [host] + extra { names.insert(bracketed(h.lowercased())) }
        if let numeric { names.insert(numeric.urlHost) }
        return names
    }

    private static func bracketed(_ h: String) -> String {
        h.contains(":") && !h.hasPrefix("[") ? "[\(h)]" : h
    }
}
