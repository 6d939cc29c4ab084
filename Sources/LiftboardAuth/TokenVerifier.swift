import LiftboardWire

/// Verifies compact JWTs (RFC 7519) against a key set, strictly:
/// - a token over `maxTokenBytes` is refused before it is parsed;
/// - three canonical base64url segments; header and payload JSON objects with distinct names;
/// - the key is the one the header's `kid` names, and the algorithm is that key's: a header
///   `alg` that differs (`none` included) is refused, and so is any `crit`;
/// - the signature is checked by libcrypto before the payload is read;
/// - then the claims: `sub` and `exp` required, `exp`/`nbf`/`iat` with `leeway` seconds,
///   `aud` when an audience is configured, and the board asked for among `boards`.
/// Reads no clock: `now` is a parameter.
public struct TokenVerifier: Sendable {
    public static let maxTokenBytes = 4096
    public static let maxLeewaySeconds = 60.0

    public var keys: KeySet
    /// When set, `aud` must name it.
    public var audience: String?
    /// Clock leeway in seconds, 0 ... `maxLeewaySeconds`.
    public let leewaySeconds: Double

    public init(keys: KeySet, audience: String? = nil, leewaySeconds: Double = TokenVerifier.maxLeewaySeconds) {
        precondition(leewaySeconds >= 0 && leewaySeconds <= Self.maxLeewaySeconds, "leeway must be 0 ... 60 s")
        self.keys = keys
        self.audience = audience
        self.leewaySeconds = leewaySeconds
    }

    /// The claims of `token` if it is valid at `now` (seconds since the Unix epoch) and, when
    /// `board` is given, grants it.
    public func verify(_ token: String, board: String?, now: Double) throws(TokenError) -> TokenClaims {
        guard token.utf8.count <= Self.maxTokenBytes else { throw .tooLarge }
        return try verify(bytes: Array(token.utf8), board: board, now: now)
    }

    public func verify(bytes token: [UInt8], board: String?, now: Double) throws(TokenError) -> TokenClaims {
        guard token.count <= Self.maxTokenBytes else { throw .tooLarge }
        let (key, signingInputEnd, payload, signature) = try split(token)
        let signingInput = token[..<signingInputEnd]
        let valid = switch key.algorithm {
        case .hs256: Signature.verifyHS256(secret: key.secret, message: signingInput, mac: signature)
        case .edDSA: Signature.verifyEdDSA(key: key.publicKey!, message: signingInput, signature: signature)
        case .es256: Signature.verifyES256(key: key.publicKey!, message: signingInput, signature: signature)
        }
        guard valid else { throw .badSignature }
        let claims = try TokenClaims.decode(payload)
        try claims.check(now: now, leeway: leewaySeconds, audience: audience)
        if let board, !claims.grants(board) { throw .boardForbidden }
        return claims
    }

    /// The key the header names (its algorithm agreeing), where the signing input ends, and
    /// the decoded payload (still unread) and signature. Every segment is checked to be
    /// base64url before a key is looked up.
    private func split(_ token: [UInt8]) throws(TokenError) -> (TokenKey, Int, [UInt8], [UInt8]) {
        guard let dot1 = token.firstIndex(of: UInt8(ascii: ".")),
              let dot2 = token[(dot1 + 1)...].firstIndex(of: UInt8(ascii: ".")),
              !token[(dot2 + 1)...].contains(UInt8(ascii: ".")) else { throw .malformed(.segments) }
        guard let headerBytes = Base64URL.decode(token[..<dot1]),
              let payload = Base64URL.decode(token[(dot1 + 1)..<dot2]),
              let signature = Base64URL.decode(token[(dot2 + 1)...]) else { throw .malformed(.encoding) }
        guard let header = try? JSONParser.parse(headerBytes), case .object(let fields) = header,
              JWTObject.hasDistinctNames(fields) else { throw .malformed(.header) }
        guard case .string(let alg)? = header["alg"], alg.lowercased() != "none", header["crit"] == nil else {
            throw .algorithmRefused
        }
        guard case .string(let kid)? = header["kid"], let key = keys.key(kid) else { throw .unknownKey }
        guard alg == key.algorithm.rawValue else { throw .algorithmRefused }
        return (key, dot2, payload, signature)
    }
}
