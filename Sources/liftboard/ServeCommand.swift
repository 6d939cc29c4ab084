import ArgumentParser
import Foundation
import LiftboardAuth
import LiftboardCore
import LiftboardServer
import LiftboardWire

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the page, the boards API and WebSocket sessions (libwebsockets).")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on (0: any free port; the listen log line says which).") var port = 8080
    @Option(name: .customLong("public"), help: "Folder of static files (default: the package's Public/).") var publicDir: String?
    @Option(help: "Folder of board JSON files, one board per file (default: the built-in demo board).") var boards: String?
    @Option(help: "Folder of images served at /media/ (cards' `image`), before --public's media/ folder.") var media: String?
    @Option(help: "Folder for the SQLite store.") var data = ".liftboard"
    @Option(help: "postgresql://USER@HOST:PORT/DB: share boards with every server process using this database (default: $LIFTBOARD_STORE, else SQLite in --data).")
    var store: String?
    @Option(help: "Serve from N processes sharing the port (SO_REUSEPORT); needs --store postgresql://... and a fixed --port.")
    var workers = 1
    @Flag(name: .customLong("share-port"), help: "Listen with SO_REUSEPORT so that other liftboard processes can share the port.")
    var sharePort = false
    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain: serve https and wss.") var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key for --tls-cert.") var tlsKey: String?
    @Option(name: .customLong("allow-origin"), help: "A page origin allowed to open WebSockets and load the <liftboard-board> modules (repeatable).") var allowOrigin: [String] = []
    @Option(help: "Require this token on the API and WebSockets (Bearer header or ?token=).") var token: String?
    @Option(name: .customLong("admin-token"), help: "Allow the API's writes (boards, items, sections) with this token (Bearer header); without it the API is read-only.") var adminToken: String?
    @Option(name: .customLong("auth-keys"), help: "A JWKS file of token verification keys (oct/HS256, OKP Ed25519/EdDSA, EC P-256/ES256): sessions and the API then need a signed token naming the board (docs/auth.md). Read again on SIGHUP.")
    var authKeys: String?
    @Option(name: .customLong("auth-audience"), help: "With --auth-keys: the audience a token's aud must name.") var authAudience: String?
    @Option(name: .customLong("token-warning"), help: "Seconds before a session's token expires that it is sent token_expiring (1 to 60).")
    var tokenWarning = 60.0
    @Option(name: .customLong("allow-host"), help: "Also answer requests whose Host header names this (repeatable; * for any). localhost, 127.0.0.1, [::1] and --host always are.") var allowHost: [String] = []
    @Option(name: .customLong("max-sessions"), help: "Most WebSocket sessions at once (default: as many as the file descriptor limit fits, at most 4096).") var maxSessions: Int?
    @Option(name: .customLong("hello-timeout"), help: "Seconds a WebSocket has to send hello before it is closed (1008).") var helloTimeout = 10.0
    @Option(name: .customLong("record-max-bytes"), help: "A session's recording stops past this many bytes.") var recordMaxBytes = 16 << 20
    @Option(help: "Record every session as a replay stream into this folder.") var record: String?
    @Option(name: .customLong("log-level"), help: "The most detailed lines written.") var logLevel: LogLevel = .info
    @Flag(help: "Also serve the raw echo protocol liftboard.echo on /echo (diagnostics, benchmarks).") var echo = false
    @Flag(name: .customLong("allow-framing"), help: "Let other sites embed the page in a frame.") var allowFraming = false
    @Option(name: .customLong("embed-origin"), help: "The origin (https://app.example) that may frame /embed?board=ID and receives its events.") var embedOrigin: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if let maxSessions, maxSessions <= 0 { throw ValidationError("--max-sessions must be positive") }
        guard helloTimeout > 0, helloTimeout <= 3600 else { throw ValidationError("--hello-timeout must be between 0 and 3600 seconds") }
        guard recordMaxBytes >= 1024 else { throw ValidationError("--record-max-bytes must be at least 1024") }
        if let token {
            guard !token.isEmpty, token.utf8.count <= 4096, token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw ValidationError("--token must be 1 to 4096 printable ASCII characters without spaces")
            }
        }
        if let adminToken {
            guard !adminToken.isEmpty, adminToken.utf8.count <= 4096, adminToken.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }),
                  adminToken != token else {
                throw ValidationError("--admin-token must be 1 to 4096 printable ASCII characters without spaces, not the --token")
            }
        }
        guard tokenWarning >= 1, tokenWarning <= 60 else { throw ValidationError("--token-warning must be between 1 and 60 seconds") }
        if authAudience != nil, authKeys == nil { throw ValidationError("--auth-audience needs --auth-keys") }
        if let embedOrigin, !Server.isOrigin(embedOrigin) {
            throw ValidationError("--embed-origin must be an origin: http(s)://host[:port], no path (got \(embedOrigin))")
        }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        if let url = storeURL {
            guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
                throw ValidationError("--store must be a postgresql:// URL (got \(url))")
            }
        }
        guard (1...256).contains(workers) else { throw ValidationError("--workers must be between 1 and 256") }
        if workers > 1 {
            guard storeURL != nil else { throw ValidationError("--workers needs a shared store: --store postgresql://... (SQLite is one process's)") }
            guard port != 0 else { throw ValidationError("--workers needs a fixed --port (they share it)") }
        }
    }

    /// `--store`, else `$LIFTBOARD_STORE` (empty: SQLite).
    var storeURL: String? {
        if let store, !store.isEmpty { return store }
        if let env = ProcessInfo.processInfo.environment["LIFTBOARD_STORE"], !env.isEmpty { return env }
        return nil
    }

    func run() throws {
        let publicPath = publicDir ?? Self.defaultPublic()
        guard FileManager.default.fileExists(atPath: publicPath + "/index.html") else {
            fail("no index.html in \(publicPath) (use --public DIR)")
        }
        var boardList = [DemoBoard.board, KanbanBoard.board]
        if let dir = boards {
            do { boardList = try BoardFiles.load(folder: dir) } catch { fail("\(error)") }
        }
        for path in [tlsCert, tlsKey].compactMap({ $0 }) where !FileManager.default.isReadableFile(atPath: path) {
            fail("cannot read \(path)")
        }
        var isDir: ObjCBool = false
        if let media, !(FileManager.default.fileExists(atPath: media, isDirectory: &isDir) && isDir.boolValue) {
            fail("no folder \(media) (--media)")
        }
        var config = ServerConfig(publicDir: publicPath, boards: boardList)
        config.host = host
        config.mediaDir = media
        config.port = port
        config.dataDir = data
        config.storeURL = storeURL
        config.sharePort = sharePort || workers > 1
        config.tlsCert = tlsCert
        config.tlsKey = tlsKey
        config.allowOrigins = allowOrigin
        config.token = token
        config.adminToken = adminToken
        config.maxSessions = maxSessions
        config.recordDir = record
        config.recordMaxBytes = recordMaxBytes
        config.allowHosts = allowHost
        config.helloTimeout = helloTimeout
        config.echo = echo
        config.allowFraming = allowFraming
        config.embedOrigin = embedOrigin
        config.logLevel = logLevel
        if let authKeys {
            // A file that cannot be used stops serve here, naming the file and the reason.
            guard let bytes = FileManager.default.contents(atPath: authKeys) else { fail("--auth-keys \(authKeys): cannot read it") }
            do throws(KeySetError) {
                config.authKeys = try KeySet.parse([UInt8](bytes))
            } catch {
                fail("--auth-keys \(authKeys): \(error)")
            }
            config.authKeysPath = authKeys
            config.authAudience = authAudience
        }
        config.tokenWarningSeconds = tokenWarning
        // The other workers: this very command, one process each, sharing the port.
        let others = (1..<workers).map { _ in Self.spawnWorker() }
        let server = Server(config: config)
        do { _ = try server.start() } catch { others.forEach { $0.terminate() }; fail("\(error)") }
        // The workers are told to stop as soon as this one is (each drains within its own
        // bound, alongside this one), not after.
        server.onStopping = { for p in others where p.isRunning { p.terminate() } }
        server.run()
        for p in others where p.isRunning { p.terminate() }
        for p in others { p.waitUntilExit() }
    }

    /// Starts this binary again with the same arguments, `--workers 1 --share-port`.
    static func spawnWorker() -> Process {
        var args = Array(CommandLine.arguments.dropFirst())
        if let k = args.firstIndex(of: "--workers"), k + 1 < args.count { args.removeSubrange(k...(k + 1)) }
        args.removeAll { $0.hasPrefix("--workers=") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        p.arguments = args + ["--share-port"]
        do { try p.run() } catch { fail("cannot start a worker: \(error)") }
        return p
    }

    /// Public/ beside the package the binary was built in, else in the working directory.
    static func defaultPublic() -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Public/index.html").path) {
                return dir.appendingPathComponent("Public").path
            }
            dir = dir.deletingLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath + "/Public"
    }
}

/// A clear message on stderr and exit status 2, before anything listens.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("liftboard serve: \(message)\n".utf8))
    exit(2)
}

/// `--log-level error|warn|info|debug`: parsed by ArgumentParser, which lists the four in the
/// help and in the error for any other word.
extension LogLevel: ExpressibleByArgument {
    public init?(argument: String) {
        guard let level = Self.allCases.first(where: { $0.name == argument }) else { return nil }
        self = level
    }

    public static var allValueStrings: [String] { allCases.map(\.name) }

    public var defaultValueDescription: String { name }
}
