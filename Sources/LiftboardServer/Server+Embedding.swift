import CLibWebSockets
import LiftboardWire

/// What lets other sites use a board: the `<liftboard-board>` module (`/liftboard.js` and every
/// module it imports) for `--allow-origin` pages, and the iframe mode (`/embed?board=ID`) for
/// the `--embed-origin` page. docs/embedding.md.
extension Server {
    /// `/embed`: the embedded page, framed only by `--embed-origin` (without one, as
    /// `--allow-framing` says for the whole site); `/embed/config`: that
    /// origin, which the embedded page posts its events to and takes commands from. nil: not
    /// an embedding path.
    func embedRoute(_ wsi: OpaquePointer, path: String) -> Int32? {
        switch path {
        case "/embed":
            return serveStatic(wsi, path: "/embed.html", frameAncestors: config.embedOrigin)
        case "/embed/config":
            guard let origin = config.embedOrigin else {
                return respondJSON(wsi, 404, #"{"error":"not_found","message":"no --embed-origin: the embedded page posts nowhere"}"#)
            }
            var w = JSONWriter()
            w.beginObject(); w.key("origin"); w.string(origin); w.endObject()
            return respond(wsi, 200, "application/json", w.bytes)
        default:
            return nil
        }
    }

    /// A JavaScript module fetched by an `--allow-origin` page (module scripts load in CORS
    /// mode) is readable by that page; any other origin gets no CORS header, and the browser
    /// refuses the module.
    func moduleCORSHeaders(_ wsi: OpaquePointer, fileExtension ext: String) -> [(String, String)] {
        guard ext == "js" || ext == "mjs", let origin = header(wsi, WSI_TOKEN_ORIGIN),
              config.allowOrigins.contains(origin) else { return [] }
        return [("access-control-allow-origin:", origin), ("vary:", "Origin")]
    }

    /// `scheme://host[:port]` with scheme http or https and nothing after: what a browser puts
    /// in an Origin header, and all that CSP's `frame-ancestors` and `postMessage` take.
    public static func isOrigin(_ s: String) -> Bool {
        let schemes = ["http://", "https://"]
        guard let scheme = schemes.first(where: { s.hasPrefix($0) }) else { return false }
        let rest = s.dropFirst(scheme.count)
        guard !rest.isEmpty, rest.utf8.count <= 255 else { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        return rest.allSatisfy { allowed.contains($0) } && rest.first != ":"
    }
}
