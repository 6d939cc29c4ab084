import Foundation

/// The repository's files, for tests that run the examples and the golden streams.
enum Files {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let golden = root.appendingPathComponent("Tests/LiftboardWireTests/Golden")

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    static func list(_ folder: URL, suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(suffix) }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// A script or board given as text, under a name `ScriptFile.run` can read.
    static func reader(_ files: [String: String]) -> (String) -> [UInt8]? {
        { path in files[path].map { Array($0.utf8) } ?? read(path) }
    }
}
