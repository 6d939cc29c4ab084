import Foundation

/// The page's files: a request path to a readable file under the root (Public/), never one
/// outside it (no `..`, `.`, backslash or NUL segment, percent-encoded or not; no symlink out),
/// a folder meaning its `index.html`. Decides only: lws sends the file.
struct StaticFiles {
    /// The root, standardized and with its symlinks resolved, once.
    let root: String

    init(root: String) {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
    }

    struct File: Equatable {
        var path: String
        var mimeType: String
    }

    static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json", "map": "application/json",
        "png": "image/png", "svg": "image/svg+xml", "ico": "image/x-icon", "webp": "image/webp", "jpg": "image/jpeg",
        "wasm": "application/wasm", "txt": "text/plain; charset=utf-8", "woff2": "font/woff2", "webmanifest": "application/manifest+json",
        "yaml": "application/yaml",
    ]

    /// The file a request path names, or nil (404).
    func resolve(_ path: String) -> File? {
        let decoded = path.removingPercentEncoding ?? path
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0 == "." || $0.contains("\\") || $0.contains("\0") }) { return nil }
        var candidate = URL(fileURLWithPath: root)
        for s in segments { candidate.appendPathComponent(String(s)) }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), isDir.boolValue {
            candidate.appendPathComponent("index.html")
        }
        let resolved = candidate.resolvingSymlinksInPath().path
        guard resolved == root || resolved.hasPrefix(root + "/"), FileManager.default.isReadableFile(atPath: resolved) else { return nil }
        let ext = (resolved as NSString).pathExtension.lowercased()
        return File(path: resolved, mimeType: Self.mimeTypes[ext] ?? "application/octet-stream")
    }
}
