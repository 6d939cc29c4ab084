import CLibWebSockets

/// A one-shot timer on the service loop: a session's next deadline (long press, settle,
/// auto-scroll, idle), the heap trims, the change feed's heartbeat. Re-armed or cancelled at
/// will; `fire` runs on the service thread.
///
/// On the libuv loop (the default) it is a libuv timer of its own, not an lws `sul`: lws
/// 4.1.6's libuv plugin restarts its one timer for all suls with the time left rounded to the
/// nearest millisecond, and libuv 1.44 runs a timer restarted with 0 ms again within the same
/// pass of its timers, so a sul that comes due spins the loop for up to half a millisecond
/// (counted by `scripts/bench-instructions`: 10,315 sul wake-ups for the 61 session timers and
/// 15 trims fired in a `realistic` run). libuv's own timers are whole milliseconds and fire
/// once; one that fires early (the loop's clock is a turn old) is re-armed by its owner. With
/// lws's poll loop it stays a sul (that loop has no libuv to ask).
final class LoopTimer {
    private enum Backing {
        case uv(UnsafeMutablePointer<clws_uv_timer>)
        case sul(UnsafeMutablePointer<clws_timer>, context: OpaquePointer?)
    }

    private var backing: Backing?
    private let fire: () -> Void

    /// A stopped timer on `loop` (the libuv loop; nil: lws's own, through `context`), or nil
    /// when it cannot be made.
    init?(loop: UnsafeMutableRawPointer?, context: OpaquePointer?, fire: @escaping () -> Void) {
        self.fire = fire
        let raw = Unmanaged.passUnretained(self).toOpaque()
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
            clws_uv_timer_start(t, loopTimerUVFired, UInt64(max(0, ms).rounded(.up)))
        case .sul(let t, let context)?:
            lws_sul_schedule(context, 0, &t.pointee.sul, loopTimerSulFired, lws_usec_t((max(0, ms) * 1000).rounded(.up)))
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

    /// Cancels it for good and frees it, while the loop still runs (a libuv timer's memory
    /// goes in the loop's next turn).
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

    fileprivate func fired() { fire() }
}

private func loopTimerUVFired(_ timer: UnsafeMutablePointer<uv_timer_t>?) {
    guard let timer, let owner = clws_uv_timer_owner(timer) else { return }
    Unmanaged<LoopTimer>.fromOpaque(owner).takeUnretainedValue().fired()
}

private func loopTimerSulFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    Unmanaged<LoopTimer>.fromOpaque(owner).takeUnretainedValue().fired()
}
