import Foundation
import Testing
@testable import LiftboardServer

@Suite struct StaticFilesTests {
    /// root/index.html, root/js/app.js, root/js/index.html, a secret beside the root, and a
    /// symlink in the root pointing at it.
    static func tree() throws -> (StaticFiles, String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)").path
        let root = base + "/public"
        try FileManager.default.createDirectory(atPath: root + "/js", withIntermediateDirectories: true)
        for (path, text) in [("/index.html", "<html>"), ("/js/app.js", "x"), ("/js/index.html", "js"), ("/notes.unknown", "?")] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + path))
        }
        try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: root + "/link.txt", withDestinationPath: base + "/secret.txt")
        return (StaticFiles(root: root), StaticFiles(root: root).root)
    }

    @Test("paths name files under the root, a folder its index.html, with their types")
    func served() throws {
        let (files, root) = try Self.tree()
        #expect(files.resolve("/") == .init(path: root + "/index.html", mimeType: "text/html; charset=utf-8"))
        #expect(files.resolve("/index.html")?.path == root + "/index.html")
        #expect(files.resolve("/js/app.js") == .init(path: root + "/js/app.js", mimeType: "text/javascript; charset=utf-8"))
        #expect(files.resolve("/js")?.path == root + "/js/index.html")
        #expect(files.resolve("//js//app.js")?.path == root + "/js/app.js")
        #expect(files.resolve("/j%73/app.js")?.path == root + "/js/app.js")
        #expect(files.resolve("/notes.unknown")?.mimeType == "application/octet-stream")
    }

    @Test("nothing outside the root, however the path is spelled, and nothing missing")
    func refused() throws {
        let (files, _) = try Self.tree()
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/js/../../secret.txt", "/./index.html", "/js\\..\\index.html",
                     "/index.html%00.js", "/link.txt", "/missing.js", "/js/missing/"] {
            #expect(files.resolve(path) == nil, "\(path)")
        }
    }
}
