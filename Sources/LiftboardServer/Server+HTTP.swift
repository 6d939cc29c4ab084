import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardWire

/// Static files from Public/, `/healthz` and the boards API.
extension Server {
    static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json", "map": "application/json",
        "png": "image/png", "svg": "image/svg+xml", "ico": "image/x-icon", "webp": "image/webp", "jpg": "image/jpeg",
        "wasm": "application/wasm", "txt": "text/plain; charset=utf-8", "woff2": "font/woff2", "webmanifest": "application/manifest+json",
        "yaml": "application/yaml",
    ]

    var securityHeaders: [(String, String)] { securityHeaders(frameAncestors: config.allowFraming ? "*" : nil) }

    /// `frameAncestors`: who may frame the response (nil: nobody; X-Frame-Options then says so
    /// to browsers that predate CSP too).
    func securityHeaders(frameAncestors: String?) -> [(String, String)] {
        var h = [("x-content-type-options:", "nosniff"), ("referrer-policy:", "no-referrer"),
                 ("content-security-policy:", "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
                    + "style-src 'self'; script-src 'self'; frame-ancestors \(frameAncestors ?? "'none'")")]
        if frameAncestors == nil { h.append(("x-frame-options:", "DENY")) }
        return h
    }

    func handleHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        if let refusal = checkHost(wsi) {
            log(.warn, "refusal", session: nil, "\(path): \(refusal.status) \(refusal.error)")
            return respondRefusal(wsi, refusal)
        }
        if let method = writeMethod(wsi) { return beginWrite(wsi, method: method, path: path) }
        if lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0 {
            return respondJSON(wsi, 405, #"{"error":"method_not_allowed","message":"only GET is served"}"#)
        }
        if path == "/healthz" {
            let up = storeReports.storeUp
            return respondJSON(wsi, up ? 200 : 503, #"{"ok":\#(up),"store":"\#(up ? "up" : "down")","sessions":\#(connections.count),"boards":\#(hubs.count),"connections":\#(openConnections),"listen":"\#(boundAddress)"}"#)
        }
        if path == "/api" || path.hasPrefix("/api/") {
            if let token = config.token, !tokenAccepted(wsi: wsi, expected: token) {
                log(.warn, "refusal", session: nil, "\(path): missing or wrong token")
                return respondJSON(wsi, 401, #"{"error":"unauthorized","message":"a valid token is required"}"#)
            }
            if path == "/api/boards" {
                var w = JSONWriter()
                w.beginObject(); w.key("boards"); w.beginArray()
                for id in hubs.keys.sorted() {
                    w.beginObject(); w.key("id"); w.string(id); w.key("version"); w.int(hubs[id]!.truth.version); w.endObject()
                }
                w.endArray(); w.endObject()
                return respond(wsi, 200, "application/json", w.bytes)
            }
            if path == "/api/openapi.yaml" { return serveStatic(wsi, path: "/openapi.yaml") }
            if path.hasPrefix("/api/boards/"), path.hasSuffix("/events"),
               let hub = hubs[String(path.dropFirst("/api/boards/".count).dropLast("/events".count))] {
                return openEvents(wsi, hub: hub)
            }
            if path.hasPrefix("/api/boards/"), path.hasSuffix("/history"),
               let hub = hubs[String(path.dropFirst("/api/boards/".count).dropLast("/history".count))] {
                return complete(wsi, history(wsi, hub: hub), what: "GET \(path)")
            }
            if path.hasPrefix("/api/boards/"), let hub = hubs[String(path.dropFirst("/api/boards/".count))] {
                return respond(wsi, 200, "application/json", Wire.encodeBoard(hub.truth))
            }
            return respondJSON(wsi, 404, #"{"error":"not_found","message":"no such resource"}"#)
        }
        if let embedded = embedRoute(wsi, path: path) { return embedded }
        return serveStatic(wsi, path: path)
    }

    /// A file under Public/, never anything outside it. `frameAncestors`: who may frame it
    /// (nil: as `--allow-framing` says).
    func serveStatic(_ wsi: OpaquePointer, path: String, frameAncestors: String? = nil) -> Int32 {
        let decoded = path.removingPercentEncoding ?? path
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0 == "." || $0.contains("\\") || $0.contains("\0") }) {
            return respondJSON(wsi, 404, #"{"error":"not_found","message":"no such file"}"#)
        }
        var candidate = URL(fileURLWithPath: publicRoot)
        for s in segments { candidate.appendPathComponent(String(s)) }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), isDir.boolValue {
            candidate.appendPathComponent("index.html")
        }
        let resolved = candidate.resolvingSymlinksInPath().path
        guard resolved == publicRoot || resolved.hasPrefix(publicRoot + "/"),
              FileManager.default.isReadableFile(atPath: resolved) else {
            return respondJSON(wsi, 404, #"{"error":"not_found","message":"no such file"}"#)
        }
        let ext = (resolved as NSString).pathExtension.lowercased()
        let mime = Self.mimeTypes[ext] ?? "application/octet-stream"
        let security = frameAncestors.map { securityHeaders(frameAncestors: $0) } ?? securityHeaders
        let headers = security + moduleCORSHeaders(wsi, fileExtension: ext) + [("cache-control:", "no-cache")]
        let extra = headers.map { "\($0.0) \($0.1)\r\n" }.joined()
        let n = extra.withCString { lws_serve_http_file(wsi, resolved, mime, $0, Int32(strlen($0))) }
        if n < 0 || (n > 0 && lws_http_transaction_completed(wsi) != 0) { return -1 }
        return 0
    }

    func respondRefusal(_ wsi: OpaquePointer, _ r: Refusal) -> Int32 {
        guard writeRefusal(wsi, r) else { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    func respondJSON(_ wsi: OpaquePointer, _ status: UInt32, _ body: String) -> Int32 {
        respond(wsi, status, "application/json", Array(body.utf8))
    }

    func respond(_ wsi: OpaquePointer, _ status: UInt32, _ contentType: String, _ body: [UInt8]) -> Int32 {
        let headers = securityHeaders + [("cache-control:", "no-store")]
        let names = headers.map { strdup($0.0) }, values = headers.map { strdup($0.1) }
        defer { names.forEach { free($0) }; values.forEach { free($0) } }
        let rc = names.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { np in
            values.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { vp in
                body.withUnsafeBufferPointer { bp in
                    clws_http_respond(wsi, status, contentType, np.baseAddress, vp.baseAddress, Int32(headers.count),
                                      bp.baseAddress, bp.count)
                }
            }
        }
        return rc != 0 ? -1 : 0
    }

    /// Same host as the page, an `--allow-origin`, or no Origin at all (a non-browser client)
    /// when no `--allow-origin` is given. lws reports an empty header as absent, so with
    /// `--allow-origin` a missing or empty Origin is refused, and without it both pass (the
    /// Host check still applies).
    func originAllowed(_ wsi: OpaquePointer) -> Bool {
        guard let origin = header(wsi, WSI_TOKEN_ORIGIN) else { return config.allowOrigins.isEmpty }
        if config.allowOrigins.contains(origin) { return true }
        guard let host = header(wsi, WSI_TOKEN_HOST) else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}
