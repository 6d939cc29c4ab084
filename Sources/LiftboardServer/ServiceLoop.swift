import CLibWebSockets
import Foundation

/// How the service thread waits for its sockets.
///
/// lws 4.1's own loop calls poll() over every descriptor on each wake-up, and each message
/// takes two wake-ups (the read, then the writeable callback it asks for): at 1,000 sessions
/// the kernel walks 1,000 descriptors twice a message. Through its libuv plugin lws waits with
/// epoll, whose cost follows the descriptors that are ready (see docs/performance.md, "The
/// service loop"). `LIFTBOARD_EVENT_LOOP=poll` keeps lws's own loop; a machine without the
/// plugin (`libwebsockets-evlib-uv`) falls back to it.
struct ServiceLoop {
    enum Kind: String { case epoll, poll }

    private(set) var kind: Kind
    /// The libuv loop lws runs on (kind == .epoll), owned by the server.
    private(set) var uvLoop: UnsafeMutableRawPointer?
    /// lws reads `foreign_loops[0]` while it creates the context.
    private var foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>?

    /// The loop `LIFTBOARD_EVENT_LOOP` asks for: `epoll` (the default), or `poll`.
    static func requested(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(ServerError) -> Kind {
        guard let value = environment["LIFTBOARD_EVENT_LOOP"], !value.isEmpty else { return .epoll }
        guard let kind = Kind(rawValue: value) else {
            throw .listen("LIFTBOARD_EVENT_LOOP=\(value): expected epoll or poll")
        }
        return kind
    }

    init(kind: Kind) { self.kind = kind }

    /// Sets the context options for this loop (a new libuv loop for epoll).
    mutating func configure(_ info: inout lws_context_creation_info) {
        guard kind == .epoll else { return }
        if uvLoop == nil { uvLoop = clws_uv_loop_new() }
        guard let uvLoop else { kind = .poll; return }
        if foreignLoops == nil { foreignLoops = .allocate(capacity: 1) }
        foreignLoops!.pointee = uvLoop
        info.options |= CLWS_CONTEXT_LIBUV
        info.foreign_loops = foreignLoops
    }

    /// lws would not create a context with the plugin: use its own poll loop instead.
    mutating func fallBackToPoll() {
        if let uvLoop { clws_uv_loop_free(uvLoop) }
        uvLoop = nil
        kind = .poll
    }

    /// Waits for events or the next timer and services them; false when lws failed.
    /// `wait: false` (libuv only): services what is ready now and returns without waiting.
    func turn(_ context: OpaquePointer?, wait: Bool = true) -> Bool {
        if let uvLoop {
            if wait { clws_uv_run_once(uvLoop) } else { clws_uv_run_nowait(uvLoop) }
            return true
        }
        return lws_service(context, 0) >= 0
    }

    /// After `lws_context_destroy`: lets lws's libuv handles finish closing and frees the loop.
    mutating func destroy() {
        if let uvLoop { clws_uv_loop_free(uvLoop) }
        uvLoop = nil
        foreignLoops?.deallocate()
        foreignLoops = nil
    }
}
