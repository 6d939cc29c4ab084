import Foundation

/// Keeps a flood from filling the disk through stderr: each kind of log line gets at most
/// `perSecond` lines a second; the rest are counted, and the next line of that kind that gets
/// through says how many were left out.
struct LogLimiter {
    var perSecond = 20
    private var kinds: [String: RateLimiter] = [:]

    /// Whether a line of `kind` may be written at `now` (ms), and how many lines of that kind
    /// were left out since the last one written.
    mutating func admit(_ kind: String, now: Double) -> (Bool, suppressed: Int) {
        // Changed in place: one lookup of the kind, not a read and a write.
        let decision = kinds[kind, default: RateLimiter(limit: perSecond)].admit(now: now)
        guard decision.admitted else { return (false, 0) }
        if kinds.count > 256 { kinds = kinds.filter { !$0.value.windowEnded(now: now) } }
        return (true, decision.refusedBefore)
    }
}

/// libwebsockets' own log lines, through the same kind of limit (it logs from the service
/// thread, but the lock keeps this safe whatever thread it is).
final class LWSLogSink: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    static let shared = LWSLogSink()
    private let lock = NSLock()
    private var limiter = LogLimiter()
    private let started = DispatchTime.now().uptimeNanoseconds

    func emit(level: Int32, line: String) {
        let now = Double((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
        // Lines differ by their numbers (fds, errnos): the kind is the line without digits.
        let kind = String(line.unicodeScalars.filter { !("0"..."9").contains($0) }.prefix(80))
        lock.lock()
        let (ok, suppressed) = limiter.admit(kind, now: now)
        lock.unlock()
        guard ok else { return }
        var text = line.hasSuffix("\n") ? String(line.dropLast()) : line
        if suppressed > 0 { text += " (\(suppressed) similar lines left out)" }
        Server.writeStandardError(Array("liftboard lws \(text)\n".utf8))
    }
}

/// The C log callback handed to `lws_set_log_level`.
func lwsLogEmit(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line else { return }
    LWSLogSink.shared.emit(level: level, line: String(cString: line))
}
