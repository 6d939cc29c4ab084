import LiftboardAuth
import LiftboardCore

/// Who a request or an upgrade acts for, once admitted: the person, until when (seconds since
/// the Unix epoch; nil: a shared `--token`, which does not expire), and which boards.
struct Admission: Equatable, Sendable {
    var person: Person
    var expiresAt: Double?
    /// The token's `boards` patterns; nil: every board (`--token`, `--admin-token`, no keys).
    var boards: [String]?
    /// The board a WebSocket URL names (`/ws?board=B`): its hello must name the same.
    var board: String? = nil

    /// Whether this admission may act on board `id`.
    func grants(_ id: String) -> Bool {
        guard let boards else { return true }
        return TokenClaims(subject: "-", expiresAt: 0, boards: boards).grants(id)
    }

    /// Without `--auth-keys` and `--token`: everyone, role `edit`, every board, for ever.
    static let open = Admission(person: .open, expiresAt: nil, boards: nil)
}

/// Why a request or an upgrade is refused: no token where one is needed, a token the verifier
/// refuses, or one whose role falls short. None carries a byte of the token.
enum AuthRefusal: Error, Equatable, Sendable {
    /// No token at all (401 `token_required`).
    case missing
    /// `Authorization` present but not `Bearer <token>` (401 `token_invalid`).
    case malformedHeader
    /// Neither the `--token` nor the `--admin-token`, on a server without keys (401 `unauthorized`).
    case wrongToken
    case token(TokenError)
    /// A valid token whose role is below `needed` (403 `role_forbids`).
    case role(needed: Role)

    var code: HTTPErrorCode {
        switch self {
        case .missing: .tokenRequired
        case .malformedHeader: .tokenInvalid
        case .wrongToken: .unauthorized
        case .token(let e): HTTPErrorCode(rawValue: e.code) ?? .tokenInvalid
        case .role: .roleForbids
        }
    }

    var status: UInt32 {
        switch self {
        case .missing, .malformedHeader, .wrongToken: 401
        case .token(let e): UInt32(e.httpStatus)
        case .role: 403
        }
    }

    var message: String {
        switch self {
        case .missing: "a token is required (Authorization: Bearer, or ?token= on /ws)"
        case .malformedHeader: "the Authorization header is not 'Bearer <token>'"
        case .wrongToken: "a valid token is required"
        case .token(let e): e.description
        case .role(let needed): "this needs role \(needed.rawValue)"
        }
    }

    var httpError: HTTPError { HTTPError(status, code, message) }
}

/// The server's gate (issue 42): `--auth-keys` (a JWKS, reloaded on SIGHUP), `--auth-audience`,
/// the clock leeway, and the shared `--token` and `--admin-token`. `admit` decides from the
/// request's token, the board asked for and the time, and reads no clock and no socket: the
/// callbacks hand it what the request carries (AuthenticatorTests calls it directly).
struct Authenticator {
    /// nil: no `--auth-keys` (sessions are `Person.open`, or gated by `--token` alone).
    private(set) var verifier: TokenVerifier?
    /// `--auth-keys FILE`, read again on SIGHUP.
    let keysPath: String?
    let sharedToken: String?
    let adminToken: String?
    /// Seconds before a session's `exp` that it is sent `token_expiring` (`--token-warning`).
    let warningSeconds: Double
    /// Admissions decided at an upgrade, taken when its session is established (the token is
    /// verified once, before the 101); keyed by the connection.
    var upgrades: [UnsafeMutableRawPointer: Admission] = [:]

    init(keys: KeySet?, keysPath: String?, audience: String?, sharedToken: String?, adminToken: String?,
         leewaySeconds: Double = TokenVerifier.maxLeewaySeconds, warningSeconds: Double = 60) {
        verifier = keys.map { TokenVerifier(keys: $0, audience: audience, leewaySeconds: leewaySeconds) }
        self.keysPath = keysPath
        self.sharedToken = sharedToken
        self.adminToken = adminToken
        self.warningSeconds = warningSeconds
    }

    /// Whether signed tokens are required (`--auth-keys`).
    var usesKeys: Bool { verifier != nil }

    /// Whether any request needs a token at all.
    var gates: Bool { verifier != nil || sharedToken != nil }

    /// The token a request presents: `Authorization: Bearer T` first, else `?token=T`; nil when
    /// it presents none. A header that is there but not `Bearer <one token>` is refused rather
    /// than skipped.
    static func presented(query: String?, authorization: String?) -> Result<String?, AuthRefusal> {
        if let authorization {
            let parts = authorization.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
                return .failure(.malformedHeader)
            }
            return .success(String(parts[1]))
        }
        if let query, !query.isEmpty { return .success(query) }
        return .success(nil)
    }

    /// Who `token` acts for on `board` (nil: no one board, e.g. the list of boards) at `now`
    /// (seconds since the Unix epoch), needing at least role `needed`.
    /// - no keys and no `--token`: everyone, `Person.open`;
    /// - the `--admin-token`: role admin (the API's writes; with keys, its reads too);
    /// - the `--token`: role edit on every board;
    /// - with keys, a JWT the verifier accepts: its `sub`, `name`, `role` and `boards`.
    func admit(token: String?, board: String?, needed: Role = .view, now: Double) -> Result<Admission, AuthRefusal> {
        guard let token else {
            return gates || !Person.open.role.includes(needed) ? .failure(.missing) : .success(.open)
        }
        let admission: Admission
        if let adminToken, Self.same(token, adminToken) {
            admission = Admission(person: Person(role: .admin), expiresAt: nil, boards: nil)
        } else if let sharedToken, Self.same(token, sharedToken) {
            admission = .open
        } else if let verifier {
            do {
                let claims = try verifier.verify(token, board: board, now: now)
                admission = Admission(person: Person(user: claims.subject, name: claims.name, role: claims.role),
                                      expiresAt: claims.expiresAt, boards: claims.boards)
            } catch {
                return .failure(.token(error))
            }
        } else if gates {
            return .failure(.wrongToken)
        } else {
            admission = .open
        }
        if let board, !admission.grants(board) { return .failure(.token(.boardForbidden)) }
        guard admission.person.role.includes(needed) else { return .failure(.role(needed: needed)) }
        return .success(admission)
    }

    /// `admit` from what a request carries: its `?token=` and `Authorization` header.
    func admit(query: String?, authorization: String?, board: String?, needed: Role = .view, now: Double) -> Result<Admission, AuthRefusal> {
        switch Self.presented(query: query, authorization: authorization) {
        case .failure(let refusal): .failure(refusal)
        case .success(let token): admit(token: token, board: board, needed: needed, now: now)
        }
    }

    /// The keys of `--auth-keys` read again (SIGHUP); a file that cannot be used never gets
    /// here (the old keys are kept).
    mutating func reload(_ keys: KeySet) {
        verifier?.keys = keys
    }

    /// Compares two tokens in time that depends on their lengths alone.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
