import CLibWebSockets
import Foundation
import LiftboardAuth
import LiftboardCore

/// Signed tokens on the sockets (issue 42): what the callbacks hand `Authenticator` (a
/// request's `?token=`, `Authorization`, board and the wall clock), and what they do with its
/// answer. Tokens are never logged: only the refusal's code and fixed message are.
extension Server {
    /// Seconds since the Unix epoch: what a token's times count in.
    var wallClock: Double { Date().timeIntervalSince1970 }

    /// A token's `exp` (seconds since the epoch) on the server's clock (ms since start).
    func serverTime(unix: Double) -> Double { now + (unix - wallClock) * 1000 }

    /// With `--auth-keys`: the upgrade's token, for the board its URL names (`?board=`), before
    /// the 101. Accepted, the admission waits for the session (`takeUpgradeAdmission`).
    func admitUpgrade(_ wsi: OpaquePointer) -> HTTPError? {
        let board = queryValue(wsi, "board")
        let decided = auth.admit(query: queryValue(wsi, "token"), authorization: header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION),
                                 board: board, now: wallClock)
        switch decided {
        case .failure(let refusal):
            return refusal.httpError
        case .success(var admission):
            // A signed token is for boards: the URL must say which one the session is for.
            if admission.boards != nil, board == nil || board!.isEmpty {
                return HTTPError(400, .badRequest, "the WebSocket URL must name the board: /ws?board=B&token=T")
            }
            admission.board = board
            auth.upgrades[UnsafeMutableRawPointer(wsi)] = admission
            return nil
        }
    }

    /// The admission `admitUpgrade` decided for this connection (once).
    func takeUpgradeAdmission(_ wsi: OpaquePointer) -> Admission? {
        auth.upgrades.isEmpty ? nil : auth.upgrades.removeValue(forKey: UnsafeMutableRawPointer(wsi))
    }

    /// A connection went away: an admission its upgrade left behind goes with it.
    func forgetUpgradeAdmission(_ wsi: OpaquePointer) {
        if !auth.upgrades.isEmpty { auth.upgrades[UnsafeMutableRawPointer(wsi)] = nil }
    }

    /// An `auth` message's token, for `board`: its person and expiry on the server's clock.
    func renewal(_ token: String, board: String?) -> Result<(person: Person, expiresAt: Double?), AuthRefusal> {
        switch auth.admit(token: token, board: board, now: wallClock) {
        case .success(let a): .success((a.person, a.expiresAt.map(serverTime(unix:))))
        case .failure(let r): .failure(r)
        }
    }

    /// With `--auth-keys`, an API request's token for what `route` reads or writes: nil when it
    /// is open (`/healthz`, static files, the OpenAPI document).
    func admitRequest(_ wsi: OpaquePointer, route: Route) -> Result<Admission, AuthRefusal>? {
        guard route.access != .open else { return nil }
        let (board, needed) = Self.needs(route)
        return auth.admit(query: nil, authorization: header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION), board: board, needed: needed, now: wallClock)
    }

    /// The board a route reads or writes (nil: none, or not known before its body) and the
    /// role it needs: reads `view`, item and section edits and undo `edit`, boards `admin`.
    static func needs(_ route: Route) -> (board: String?, role: Role) {
        switch route {
        case .board(let id), .history(let id), .events(let id): (id, .view)
        case .edit(let id, _), .undo(let id): (id, .edit)
        case .replaceBoard(let id), .deleteBoard(let id): (id, .admin)
        case .createBoard: (nil, .admin)
        case .listBoards, .health, .staticFile, .embed, .embedConfig, .notFound, .methodNotAllowed: (nil, .view)
        }
    }

    /// SIGHUP: `--auth-keys` read again. A file that cannot be used is logged, naming the file
    /// and the reason, and the keys in force are kept; sessions are not touched either way.
    func reloadAuthKeysIfAsked() {
        guard running.reloadFlag.isSet else { return }
        running.reloadFlag.clear()
        guard let path = auth.keysPath else {
            log(.info, "auth-keys", session: nil, "SIGHUP: no --auth-keys to read again")
            return
        }
        do {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            do throws(KeySetError) {
                let keys = try KeySet.parse(bytes)
                auth.reload(keys)
                log(.info, "auth-keys", session: nil, "\(path): reloaded, \(keys.keys.count) keys")
            } catch {
                log(.error, "auth-keys", session: nil, "\(path): \(error); the keys in force are kept")
            }
        } catch {
            log(.error, "auth-keys", session: nil, "\(path): cannot read it (\(error.localizedDescription)); the keys in force are kept")
        }
    }
}
