import CLibWebSockets
import LiftboardCore

/// The deadlines and the hard stop of a connection that is not being useful: one that never
/// says hello, and a reader so slow that waiting for its socket would hold it forever.
extension Connection {
    /// An upgraded WebSocket has `--hello-timeout` to send `hello` (lws's per-connection timer,
    /// which goes with the connection when it closes).
    func startHelloDeadline() {
        lws_set_timer_usecs(wsi, lws_usec_t(server.config.helloTimeout * 1_000_000))
    }

    /// LWS_CALLBACK_TIMER: closes with 1008 unless a hello arrived.
    func helloDeadlinePassed() {
        guard hub == nil, closing == nil else { return }
        if waitingForBoard != nil {
            // The hello came; the shared store did not say in time whether its board exists.
            waitingForBoard = nil
            server.forgetWaitingHello(self)
            send(.error(code: .storeUnavailable, message: "the board could not be looked up in the shared store in time"))
            server.log(.warn, "refusal", session: id, "board lookup unanswered within \(server.config.helloTimeout) s, closing")
            return close(1011, "store unavailable")
        }
        send(.error(code: .noHello, message: "no hello within \(server.config.helloTimeout) s"))
        server.log(.warn, "refusal", session: id, "no hello within \(server.config.helloTimeout) s, closing")
        close(1008, "no hello")
    }

    /// A reader over the slow-reader bound: its socket does not take what is queued, so a
    /// close frame would wait behind it as long as lws's idle timeout (45 s) while the
    /// connection kept being read. Stop reading it and have lws close it at its next timeout
    /// check (within a second), without the close frame it could not receive anyway.
    func abandon() {
        lws_rx_flow_control(wsi, 0)
        clws_kill_async(wsi)
    }
}
