import CLibWebSockets
import Foundation
import LiftboardCore
import LiftboardWire

/// Static files from Public/, `/healthz` and the boards API.
extension Server {
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

    /// LWS_CALLBACK_HTTP: the Host check, then the request's `Route` (Router), then who may
    /// ask, then the handler.
    func handleHTTP(_ wsi: OpaquePointer, path: String) -> Int32 {
        if let refusal = checkHost(wsi) {
            log(.warn, "refusal", session: nil, "\(path): \(refusal.status) \(refusal.code)")
            return respondRefusal(wsi, refusal)
        }
        let method = requestMethod(wsi)
        let route = Router.route(method, path)
        // Writes are read to the end of their body first: the admin token is checked then.
        if route.access == .write { return beginWrite(wsi, method: method, path: path, route: route) }
        // With `--auth-keys`, a read needs a token naming its board (Server+Auth.swift).
        var reader = Admission.open
        if auth.usesKeys {
            switch admitRequest(wsi, route: route) {
            case .failure(let refusal)?:
                log(.warn, "refusal", session: nil, "\(path): \(refusal.status) \(refusal.code)")
                return send(wsi, APIResponse(refusal.httpError))
            case .success(let admitted)?: reader = admitted
            case nil: break
            }
        } else if route.access == .read, let token = config.token, !tokenAccepted(wsi: wsi, expected: token) {
            log(.warn, "refusal", session: nil, "\(path): missing or wrong token")
            return send(wsi, .error(401, .unauthorized, "a valid token is required"))
        }
        switch route {
        case .health:
            if draining {
                return respondJSON(wsi, 503, #"{"ok":false,"draining":true,"sessions":\#(sessions.connections.count),"listen":"\#(endpoint.boundAddress)"}"#)
            }
            let up = store.reports.storeUp
            return respondJSON(wsi, up ? 200 : 503, #"{"ok":\#(up),"store":"\#(up ? "up" : "down")","sessions":\#(sessions.connections.count),"boards":\#(hubs.count),"connections":\#(sessions.openConnections),"listen":"\#(endpoint.boundAddress)"}"#)
        case .listBoards:
            var w = JSONWriter()
            w.beginObject(); w.key("boards"); w.beginArray()
            // Only the boards the request's token names.
            for id in hubs.keys.sorted() where reader.grants(id) {
                w.beginObject(); w.key("id"); w.string(id); w.key("version"); w.int(hubs[id]!.truth.version); w.endObject()
            }
            w.endArray(); w.endObject()
            return respond(wsi, 200, "application/json", w.bytes)
        case .board(let id), .history(let id), .events(let id):
            guard let hub = hubs[id] else { return send(wsi, .error(404, .boardNotFound, "no board \(id)")) }
            switch route {
            case .events: return openEvents(wsi, hub: hub, expiresAt: reader.expiresAt.map(serverTime(unix:)))
            case .history: return complete(wsi, history(wsi, hub: hub), what: "GET \(path)")
            default: return respond(wsi, 200, "application/json", Wire.encodeBoard(hub.truth))
            }
        case .staticFile(let file):
            return serveStatic(wsi, path: file)
        case .embed:
            return serveStatic(wsi, path: "/embed.html", frameAncestors: config.embedOrigin)
        case .embedConfig:
            return embedConfig(wsi)
        case .notFound, .methodNotAllowed, .createBoard, .replaceBoard, .deleteBoard, .undo, .edit:
            return send(wsi, APIResponse(route.refusal ?? HTTPError(405, .methodNotAllowed, "\(method.rawValue) is not served on this path")))
        }
    }

    /// A file under Public/, never anything outside it (`StaticFiles`). `frameAncestors`: who
    /// may frame it (nil: as `--allow-framing` says).
    /// `/media/...` is a file of `--media DIR` first, else of Public/media/ (the demo's images).
    func serveStatic(_ wsi: OpaquePointer, path: String, frameAncestors: String? = nil) -> Int32 {
        let media = path.hasPrefix("/media/") ? endpoint.mediaFiles?.resolve(String(path.dropFirst(6))) : nil
        guard let file = media ?? endpoint.staticFiles.resolve(path) else { return send(wsi, .error(404, .notFound, "no such file")) }
        let security = frameAncestors.map { securityHeaders(frameAncestors: $0) } ?? securityHeaders
        let headers = security + moduleCORSHeaders(wsi, filePath: file.path) + [("cache-control:", "no-cache")]
        let extra = headers.map { "\($0.0) \($0.1)\r\n" }.joined()
        let n = extra.withCString { lws_serve_http_file(wsi, file.path, file.mimeType, $0, Int32(strlen($0))) }
        if n < 0 || (n > 0 && lws_http_transaction_completed(wsi) != 0) { return -1 }
        return 0
    }

    func respondRefusal(_ wsi: OpaquePointer, _ r: HTTPError) -> Int32 {
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
