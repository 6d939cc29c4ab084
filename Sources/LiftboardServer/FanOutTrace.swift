import Foundation

/// TEMPORARY (issue 44's tail, branch chunk44): `LIFTBOARD_TRACE_FANOUT=path` writes one line per
/// fan-out step (what, ms it took, sessions) to `path`. To be removed before merging.
enum FanOutTrace {
    nonisolated(unsafe) static let file: UnsafeMutablePointer<FILE>? = {
        guard let p = ProcessInfo.processInfo.environment["LIFTBOARD_TRACE_FANOUT"], !p.isEmpty else { return nil }
        return fopen("\(p).\(getpid())", "w")
    }()

    /// `LIFTBOARD_PRESENCE_CHUNK=n`: the hand-out's chunk (measuring only).
    static let chunk: Int? = ProcessInfo.processInfo.environment["LIFTBOARD_PRESENCE_CHUNK"].flatMap { Int($0) }

    static func note(_ what: String, start: Double, end: Double, n: Int) {
        guard let file else { return }
        fputs("\(what) \(String(format: "%.3f", start)) \(String(format: "%.3f", end - start)) \(n)\n", file)
        fflush(file)
    }
}
