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

    /// Raises the soft RLIMIT_NOFILE to the hard limit (at most 2^20: libwebsockets allocates
    /// tables of pointers sized by the limit) and returns the soft limit in force.
    public static func raiseLimit() -> Int {
        var r = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &r) == 0 else { return 1024 }
        let ceiling = rlim_t(1 << 20)
        let wanted = min(r.rlim_max, ceiling)
        if r.rlim_cur < wanted {
            var raised = r
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { r = raised }
        }
        return Int(min(r.rlim_cur, ceiling))
    }
}

/// What the service thread answers on a socket it cannot afford: written straight to the
/// accepted descriptor (no request is read), then closed.
enum RawRefusal {
    static func serviceUnavailable(_ fd: Int32) {
        write(HTTPError(503, "unavailable", "the server is at its connection limit", headers: ["retry-after:": "1"]), to: fd)
    }

    static func methodNotAllowed(_ fd: Int32) {
        write(HTTPError(405, "method_not_allowed", "only GET is served", headers: ["allow:": "GET"]), to: fd)
    }

    private static func write(_ error: HTTPError, to fd: Int32) {
        let response = error.rawResponse(extraHeaders: [("connection:", "close")])
        _ = response.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
    }
}
