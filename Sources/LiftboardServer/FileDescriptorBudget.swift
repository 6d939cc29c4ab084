import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why the server's limits do not fit in its file descriptors.
public enum FileDescriptorBudgetError: Error, CustomStringConvertible {
    case tooManySessions(requested: Int, fit: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooManySessions(let requested, let fit, let limit):
            "--max-sessions \(requested) does not fit in \(limit) file descriptors (ulimit -n): at most \(fit) do, with room for HTTP requests; lower --max-sessions or raise the limit"
        }
    }
}

/// How many connections the process can hold without running out of file descriptors.
///
/// When `accept` fails with EMFILE, libwebsockets 4.1.6 logs "accept: errno 24" and returns to
/// `poll`, which reports the listening socket readable again at once: the service thread spins
/// and writes that line millions of times a minute. So the server never lets it get there:
/// connections are counted, and past the budget a new one is answered 503 and closed at once.
///
/// Every session holds one socket (two with `--record`: the stream file); every other
/// connection (a page, a file, the API, an upgrade in progress) counts two, since serving a
/// static file opens it. A fixed reserve covers stdio, the store (database, WAL, shared memory),
/// the listening socket, lws's event pipe and the like.
public struct FileDescriptorBudget: Sendable, Equatable {
    /// Descriptors never handed to connections.
    public static let reserve = 64
    /// The fewest plain HTTP connections the budget must leave room for.
    public static let minimumHTTPConnections = 16
    /// Without --max-sessions, at most this many sessions.
    public static let defaultMaxSessions = 4096

    /// The process's soft RLIMIT_NOFILE, after raising.
    public let limit: Int
    public let maxSessions: Int
    /// Connections that are not (yet) sessions.
    public let maxOtherConnections: Int

    /// - Parameter requestedSessions: `--max-sessions`, or nil for half of what fits, at most
    ///   `defaultMaxSessions`.
    public init(limit: Int, requestedSessions: Int?, recording: Bool) throws(FileDescriptorBudgetError) {
        let perSession = recording ? 2 : 1
        let available = limit - Self.reserve - 2 * Self.minimumHTTPConnections
        let fit = max(0, available / perSession)
        if let requested = requestedSessions, requested > fit {
            throw .tooManySessions(requested: requested, fit: fit, limit: limit)
        }
        // Unasked, sessions take at most half of what fits, so that pages and API calls keep room.
        let sessions = requestedSessions ?? min(Self.defaultMaxSessions, max(1, fit / 2))
        self.limit = limit
        maxSessions = sessions
        maxOtherConnections = (limit - Self.reserve - sessions * perSession) / 2
    }

    /// Whether one more connection may be accepted, with `open` connections of which
    /// `sessions` are WebSocket sessions.
    public func admits(open: Int, sessions: Int) -> Bool {
        open - sessions < maxOtherConnections
    }

    /// The file descriptors the server holds for `requestedSessions` (nil: the default,
    /// `defaultMaxSessions`): its sessions, room for as many other connections (two
    /// descriptors each), and the reserve.
    ///
    /// Not the hard limit: libwebsockets sizes its descriptor table by the soft limit, and as
    /// Debian builds it (with `_DEBUG`) every close walks that whole table to check no trace of
    /// the connection is left (`sanity_assert_no_wsi_traces`, `sanity_assert_no_sockfd_traces`):
    /// about 6 instructions a slot, 123,000 a close at 20,000 descriptors (callgrind), and some
    /// 6 million, two milliseconds of the service thread, at the 2^20 that containers commonly
    /// allow. Sized to need, a close costs what the budget does.
    public static func wantedLimit(requestedSessions: Int?, recording: Bool) -> Int {
        let sessions = max(1, requestedSessions ?? defaultMaxSessions)
        return reserve + sessions * (recording ? 2 : 1) + 2 * max(minimumHTTPConnections, sessions)
    }

    /// The most descriptors the server ever holds: libwebsockets allocates tables sized by the
    /// limit (a pointer and a `pollfd` a slot).
    static let ceiling = rlim_t(1 << 20)

    /// Sets the soft RLIMIT_NOFILE to `wanted`, within the hard limit and `ceiling` (raised or
    /// lowered), and returns the soft limit in force.
    public static func setLimit(_ wanted: Int) -> Int {
        var r = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &r) == 0 else { return 1024 }
        let target = softLimit(for: wanted, hard: r.rlim_max)
        if r.rlim_cur != target {
            var changed = r
            changed.rlim_cur = target
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &changed) == 0 { r = changed }
        }
        return Int(min(r.rlim_cur, ceiling))
    }

    /// The soft limit `setLimit(wanted)` asks for under the hard limit `hard`: never past it nor
    /// `ceiling`, never below what the reserve and the fewest HTTP connections need.
    static func softLimit(for wanted: Int, hard: rlim_t) -> rlim_t {
        min(rlim_t(max(wanted, reserve + 2 * minimumHTTPConnections + 1)), hard, ceiling)
    }
}

/// What the service thread answers on a socket it cannot afford: written straight to the
/// accepted descriptor (no request is read), then closed.
enum RawRefusal {
    static func serviceUnavailable(_ fd: Int32) {
        write(HTTPError(503, .unavailable, "the server is at its connection limit", headers: ["retry-after:": "1"]), to: fd)
    }

    static func methodNotAllowed(_ fd: Int32) {
        write(HTTPError(405, .methodNotAllowed, "only GET is served", headers: ["allow:": "GET"]), to: fd)
    }

    private static func write(_ error: HTTPError, to fd: Int32) {
        let response = error.rawResponse(extraHeaders: [("connection:", "close")])
        _ = response.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
    }
}
