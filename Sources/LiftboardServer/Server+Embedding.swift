import CLibWebSockets
import LiftboardWire

/// What lets other sites use a board: the `<liftboard-board>` module (`/liftboard.js` and every
/// module it imports) for `--allow-origin` pages, and the iframe mode (`/embed?board=ID`) for
/// the `--embed-origin` page. docs/embedding.md.
extension Server {
    /// `GET /embed/config`: the `--embed-origin`, which the embedded page (`/embed`, served
    /// with `frame-ancestors` that origin) posts its events to and takes commands from.
    func embedConfig(_ wsi: OpaquePointer) -> Int32 {
        guard let origin = config.embedOrigin else {
            return send(wsi, .error(404, .notFound, "no --embed-origin: the embedded page posts nowhere"))
        }
        var w = JSONWriter()
        w.beginObject(); w.key("origin"); w.string(origin); w.endObject()
        return respond(wsi, 200, "application/json", w.bytes)
    }

    /// A JavaScript module fetched by an `--allow-origin` page (module scripts load in CORS
    /// mode) is readable by that page; any other origin gets no CORS header, and the browser
    /// refuses the module.
    func moduleCORSHeaders(_ wsi: OpaquePointer, filePath: String) -> [(String, String)] {
        guard filePath.hasSuffix(".js") || filePath.hasSuffix(".mjs"), let origin = header(wsi, WSI_TOKEN_ORIGIN),
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
