import LiftboardCore
import LiftboardWire

/// The claims of a verified token (RFC 7519 §4.1, plus Liftboard's `name`, `boards`, `role`).
/// Times are seconds since the Unix epoch (NumericDate, fractions allowed).
public struct TokenClaims: Hashable, Sendable {
    /// The user's id (`sub`), never empty.
    public var subject: String
    /// The name shown to others (`name`), when the token carries one.
    public var name: String?
    public var expiresAt: Double
    public var notBefore: Double?
    public var issuedAt: Double?
    /// `aud`, a string read as a list of one; empty when absent.
    public var audience: [String]
    /// Board ids; one ending in `*` stands for every id starting with what precedes it. Empty
    /// (or absent) grants no board.
    public var boards: [String]
    /// `role`, `move` when absent.
    public var role: Role

    public init(subject: String, name: String? = nil, expiresAt: Double, notBefore: Double? = nil, issuedAt: Double? = nil,
                audience: [String] = [], boards: [String] = [], role: Role = .move) {
        self.subject = subject
        self.name = name
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.issuedAt = issuedAt
        self.audience = audience
        self.boards = boards
        self.role = role
    }

    /// Whether `boards` names `boardID`, exactly or by a `prefix*` pattern (`*` alone names
    /// every board).
    public func grants(_ boardID: String) -> Bool {
        boards.contains { pattern in
            if pattern.utf8.last == UInt8(ascii: "*") {
                return boardID.utf8.starts(with: pattern.utf8.dropLast())
            }
            return pattern == boardID
        }
    }

    /// The claims of a payload, with their types checked (not their times: see `check`).
    /// Unknown claims are ignored, as RFC 7519 §4 asks.
    public static func decode(_ payload: [UInt8]) throws(TokenError) -> TokenClaims {
        guard let members = try? JSONParser.parse(payload), case .object(let fields) = members,
              JWTObject.hasDistinctNames(fields) else { throw .malformed(.payload) }
        guard case .string(let sub)? = members["sub"], !sub.isEmpty else { throw .invalidClaim(.sub) }
        guard let exp = try date(members["exp"], .exp) else { throw .invalidClaim(.exp) }
        var claims = TokenClaims(subject: sub, expiresAt: exp)
        claims.notBefore = try date(members["nbf"], .nbf)
        claims.issuedAt = try date(members["iat"], .iat)
        switch members["name"] {
        case nil: break
        case .string(let name)?: claims.name = name
        default: throw .invalidClaim(.name)
        }
        switch members["aud"] {
        case nil: break
        case .string(let one)?: claims.audience = [one]
        case .array(let many)?: claims.audience = try strings(many, .aud)
        default: throw .invalidClaim(.aud)
        }
        switch members["boards"] {
        case nil: break
        case .array(let ids)?: claims.boards = try strings(ids, .boards)
        default: throw .invalidClaim(.boards)
        }
        switch members["role"] {
        case nil: break
        case .string(let r)?:
            guard let role = Role(rawValue: r) else { throw .invalidClaim(.role) }
            claims.role = role
        default: throw .invalidClaim(.role)
        }
        return claims
    }

    /// Refuses claims outside their time window (with `leeway` seconds either way) or for
    /// another audience than `audience` (when one is configured).
    public func check(now: Double, leeway: Double, audience expected: String?) throws(TokenError) {
        guard now < expiresAt + leeway else { throw .expired }
        if let notBefore, now + leeway < notBefore { throw .notYetValid }
        if let issuedAt, now + leeway < issuedAt { throw .notYetValid }
        if let expected, !audience.contains(expected) { throw .audienceMismatch }
    }

    private static func date(_ v: JSONValue?, _ claim: TokenError.Claim) throws(TokenError) -> Double? {
        switch v {
        case nil: return nil
        case .number(let t)? where t.isFinite: return t
        default: throw .invalidClaim(claim)
        }
    }

    private static func strings(_ values: [JSONValue], _ claim: TokenError.Claim) throws(TokenError) -> [String] {
        var out: [String] = []
        out.reserveCapacity(values.count)
        for v in values {
            guard case .string(let s) = v else { throw .invalidClaim(claim) }
            out.append(s)
        }
        return out
    }
}

/// JSON objects as JOSE reads them.
enum JWTObject {
    /// RFC 7515 §4 and RFC 7519 §4: a header or claims set with a repeated member name is
    /// refused (rather than reading the last one, which parsers disagree about).
    static func hasDistinctNames(_ fields: [(String, JSONValue)]) -> Bool {
        if fields.count < 2 { return true }
        var seen = Set<String>(minimumCapacity: fields.count)
        for (k, _) in fields where !seen.insert(k).inserted { return false }
        return true
    }
}
