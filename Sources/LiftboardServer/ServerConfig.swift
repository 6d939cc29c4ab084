import LiftboardAuth
import LiftboardCore

/// Everything `liftboard serve` was told.
public struct ServerConfig: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port; the `listen` log line says which.
    public var port = 8080
    public var publicDir: String
    /// `--media DIR`: files served at `/media/` (cards' images), before Public/media/.
    public var mediaDir: String? = nil
    /// Boards to seed the store with (board files, or the built-in demo).
    public var boards: [Board]
    public var dataDir = ".liftboard"
    /// `postgresql://USER@HOST:PORT/DB`: boards shared with every process pointing there;
    /// nil: SQLite in `dataDir`.
    public var storeURL: String? = nil
    /// Listen with SO_REUSEPORT (`LWS_SERVER_OPTION_ALLOW_LISTEN_SHARE`), so that several
    /// processes share one port (`--workers`).
    public var sharePort = false
    public var tlsCert: String? = nil
    public var tlsKey: String? = nil
    public var allowOrigins: [String] = []
    public var token: String? = nil
    /// `--admin-token`: what the API's writes need (a Bearer header); nil: no writes.
    public var adminToken: String? = nil
    /// `--auth-keys FILE`: the JWKS the server verifies tokens with (read by the command, so
    /// that a file that cannot be used stops `serve` before anything listens), and its path
    /// (read again on SIGHUP). nil: no signed tokens.
    public var authKeys: KeySet? = nil
    public var authKeysPath: String? = nil
    /// `--auth-audience`: what a token's `aud` must name.
    public var authAudience: String? = nil
    /// `--token-warning`: seconds before a token's `exp` that its session is told
    /// `token_expiring`.
    public var tokenWarningSeconds = 60.0
    /// `--max-sessions`; nil: as many as the file descriptor limit fits, at most 4,096.
    public var maxSessions: Int? = nil
    public var recordDir: String? = nil
    /// A session's recording stops (with a final `#` line) past this many bytes.
    public var recordMaxBytes = 16 << 20
    /// All sessions' recordings together write at most this many bytes a second; a session
    /// whose line would go over stops recording.
    public var recordMaxBytesPerSecond = 8 << 20
    /// Host header names answered besides the loopback names and `--host`; `*`: any.
    public var allowHosts: [String] = []
    /// Seconds an upgraded WebSocket has to send `hello`.
    public var helloTimeout = 10.0
    public var echo = false
    public var allowFraming = false
    /// `--embed-origin`: the one origin that may frame `/embed` (the iframe mode) and that the
    /// embedded page posts its events to; nil: `/embed` may not be framed.
    public var embedOrigin: String? = nil
    public var logLevel: LogLevel = .info

    var allowAnyHost: Bool { allowHosts.contains("*") }

    public init(publicDir: String, boards: [Board]) {
        self.publicDir = publicDir
        self.boards = boards
    }
}

/// How much the server says on stderr.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case error = 0, warn, info, debug
    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
    public var name: String { staticName.description }
    /// The name as the log line writes it (no array of the four names made at every line).
    var staticName: StaticString {
        switch self {
        case .error: "error"
        case .warn: "warn"
        case .info: "info"
        case .debug: "debug"
        }
    }
}

/// The limits of the `liftboard.v1` protocol on a live connection.
enum Limits {
    static let maxMessageBytes = 65_536
    static let maxEchoMessageBytes = 16 * 1024 * 1024
    static let messagesPerSecond = 1000
    /// Seconds over the rate in a row before the connection is closed (1008).
    static let sustainedSeconds = 3
    /// A reader this far behind is closed.
    static let maxPendingBytes = 1 << 20
    static let maxPendingMs = 5000.0
    /// Messages kept while a hello waits for the shared store to say whether its board exists.
    static let heldBeforeBoard = 64
    /// Boards looked up in the shared store a second, server-wide, for hellos naming boards
    /// this process does not have (past it such a hello gets `no_board` at once).
    static let boardLookupsPerSecond = 50
}
