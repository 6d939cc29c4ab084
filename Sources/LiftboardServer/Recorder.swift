import Foundation
import LiftboardCore
import LiftboardWire

/// Writes one session's client messages as a replay stream on the session's clock (the
/// client's `ms` as `ClientClock` bounded it), with
/// `advance` lines where timers fired and `external` lines for other sessions' commits, and
/// the board as it was at the session's start beside it.
final class Recorder {
    private let handle: FileHandle

    init?(dir: String, session: String, board: Board, hello: [UInt8], ms: Double, log: (LogLevel, String, String?, String) -> Void) {
        let base = URL(fileURLWithPath: dir)
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let stream = base.appendingPathComponent("\(session).jsonl")
        do {
            try Data(Wire.encodeBoard(board)).write(to: base.appendingPathComponent("\(session).board.json"))
            FileManager.default.createFile(atPath: stream.path, contents: nil)
            handle = try FileHandle(forWritingTo: stream)
        } catch {
            log(.error, "error", session, "cannot record to \(dir): \(error)")
            return nil
        }
        record(hello, ms: ms)
    }

    deinit { try? handle.close() }

    private func write(_ bytes: [UInt8]) {
        handle.write(Data(bytes + [0x0A]))
    }

    /// A client message as received, with its `ms` replaced by the time the session used.
    func record(_ message: [UInt8], ms: Double) {
        guard case .object(var members)? = try? JSONParser.parse(message) else { return }
        members.removeAll { $0.0 == "ms" }
        members.append(("ms", .number(ms)))
        var w = JSONWriter()
        w.value(.object(members))
        write(w.bytes)
    }

    func recordAdvance(ms: Double) {
        var w = JSONWriter()
        w.value(.object([("t", .string("advance")), ("ms", .number(ms))]))
        write(w.bytes)
    }

    func recordExternal(_ c: Commit, ms: Double) {
        var w = JSONWriter()
        w.beginObject()
        w.key("t"); w.string("external")
        w.key("ms"); w.number(ms)
        w.key("commit"); w.beginObject()
        w.key("t"); w.string("commit")
        Wire.commitBody(c, &w)
        w.endObject()
        w.endObject()
        write(w.bytes)
    }
}
