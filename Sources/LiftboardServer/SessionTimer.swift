import CLibWebSockets

/// A connection's session timer (long press, settle, auto-scroll, idle): one at a time,
/// re-armed or cancelled as the session's next deadline moves.
///
/// On the libuv loop (the default) it is a libuv timer of its own, not an lws `sul`: lws
/// 4.1.6's libuv plugin restarts its one timer for all suls with the time left rounded to the
/// nearest millisecond, and libuv 1.44 runs a timer restarted with 0 ms again within the same
/// pass of its timers, so each sul that comes due spins the loop for up to half a millisecond
/// (counted by `scripts/bench-instructions`: 10,315 sul wake-ups for 61 session timers fired).
/// libuv's own timers are whole milliseconds and fire once. With lws's poll loop it stays a
/// sul (that loop has no libuv to ask).
final class SessionTimer {
    private enum Backing {
        case uv(UnsafeMutablePointer<clws_uv_timer>)
        case sul(UnsafeMutablePointer<clws_timer>, context: OpaquePointer?)
    }

    private var backing: Backing?

    /// A timer that calls `owner.fireTimer()` (through the C callbacks below), or nil when it
    /// cannot be made.
    init?(loop: UnsafeMutableRawPointer?, context: OpaquePointer?, owner: Connection) {
        let raw = Unmanaged.passUnretained(owner).toOpaque()
        if let loop {
            guard let t = clws_uv_timer_new(loop, raw) else { return nil }
            backing = .uv(t)
        } else {
            guard let t = clws_timer_new(raw) else { return nil }
            backing = .sul(t, context: context)
        }
    }

    /// Fires once, `ms` from now (rounded up to a whole millisecond on libuv).
    func arm(afterMs ms: Double) {
        switch backing {
        case .uv(let t)?:
            clws_uv_timer_start(t, sessionUVTimerFired, UInt64(max(0, ms).rounded(.up)))
        case .sul(let t, let context)?:
            lws_sul_schedule(context, 0, &t.pointee.sul, sessionSulTimerFired, lws_usec_t((ms * 1000).rounded(.up)))
        case nil:
            break
        }
    }

    func cancel() {
        switch backing {
        case .uv(let t)?: clws_uv_timer_stop(t)
        case .sul(let t, _)?: lws_sul_cancel(&t.pointee.sul)
        case nil: break
        }
    }

    /// Cancels it for good and frees it (the connection closed; the loop is still running).
    func release() {
        switch backing {
        case .uv(let t)?: clws_uv_timer_free(t)
        case .sul(let t, _)?:
            lws_sul_cancel(&t.pointee.sul)
            free(t)
        case nil: break
        }
        backing = nil
    }

    deinit { release() }
}

/// libuv's callback: the owner's session timer fired.
private func sessionUVTimerFired(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    guard let timer, let owner = clws_uv_timer_owner(timer) else { return }
    Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue().fireTimer()
}

/// lws's callback (the poll loop): the owner's session timer fired.
private func sessionSulTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue().fireTimer()
}
