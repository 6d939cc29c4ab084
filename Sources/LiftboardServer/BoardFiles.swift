import Foundation
import LiftboardCore
import LiftboardWire

/// `serve --boards DIR`: one board per `*.json` file, each held to the board file format and
/// to `BoardLimits` (as a board created through the API is), and one file per board id.
public enum BoardFiles {
    /// Why the folder's boards cannot be served; each names the file, and the field.
    public enum LoadError: Error, Equatable, CustomStringConvertible {
        /// The folder cannot be listed.
        case unreadableFolder(String)
        /// A file cannot be read.
        case unreadableFile(String)
        /// A file is not a valid board, or breaks a limit (the field says where).
        case invalid(file: String, BoardError)
        /// Two files give one board id.
        case duplicateID(String, first: String, second: String)
        /// No `*.json` file in the folder.
        case empty(String)

        public var description: String {
            switch self {
            case .unreadableFolder(let d): "cannot read board folder \(d)"
            case .unreadableFile(let f): "cannot read board file \(f)"
            case .invalid(let f, let e): "invalid board \(f): \(e)"
            case .duplicateID(let id, let a, let b): "two board files give board \"\(id)\": \(a) and \(b) (id)"
            case .empty(let d): "no board files (*.json) in \(d)"
            }
        }
    }

    /// The boards of `folder`'s `*.json` files, in file name order.
    public static func load(folder: String) throws(LoadError) -> [Board] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { throw .unreadableFolder(folder) }
        var boards: [Board] = []
        var files: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path) }
            let board: Board
            do {
                board = try Wire.decodeBoard([UInt8](data))
                try BoardLimits.check(board)
            } catch {
                throw .invalid(file: path, error)
            }
            if let first = files[board.id] { throw .duplicateID(board.id, first: first, second: path) }
            files[board.id] = path
            boards.append(board)
        }
        guard !boards.isEmpty else { throw .empty(folder) }
        return boards
    }
}
