import LiftboardWire

/// Signs tokens with a key that can (`TokenKey.canSign`): for operators (`liftboard token
/// mint`) and tests. The header is `{"alg", "kid", "typ": "JWT"}`; the claims are written as given.
public enum TokenMinter {
    /// Why a token cannot be minted.
    public enum MintError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The key is a public key only: minting needs its private key (`d`).
        case noPrivateKey(kid: String)
        /// libcrypto refused to sign.
        case signingFailed

        public var description: String {
            switch self {
            case .noPrivateKey(let kid): "key \"\(kid)\" holds no private key (\"d\"): it can verify, not sign"
            case .signingFailed: "libcrypto could not sign"
            }
        }
    }

    /// A compact JWT of `claims` signed by `key`.
    public static func mint(_ claims: TokenClaims, key: TokenKey) throws(MintError) -> String {
        try mint(payload: encode(claims), key: key)
    }

    /// A compact JWT of the payload bytes as given, signed by `key`.
    public static func mint(payload: [UInt8], key: TokenKey) throws(MintError) -> String {
        var header = JSONWriter()
        header.beginObject()
        header.key("alg"); header.string(key.algorithm.rawValue)
        header.key("kid"); header.string(key.kid)
        header.key("typ"); header.string("JWT")
        header.endObject()
        let input = Array((Base64URL.encode(header.bytes) + "." + Base64URL.encode(payload)).utf8)
        return String(decoding: input, as: UTF8.self) + "." + Base64URL.encode(try sign(input, key: key))
    }

    /// The JWS signature of `input` (a signing input, `header.payload`) by `key`.
    public static func sign(_ input: [UInt8], key: TokenKey) throws(MintError) -> [UInt8] {
        if key.algorithm == .hs256 {
            guard let mac = Signature.hs256(secret: key.secret, message: input[...]) else { throw .signingFailed }
            return mac
        }
        guard let priv = key.privateKey else { throw .noPrivateKey(kid: key.kid) }
        guard let sig = Signature.sign(key: priv, algorithm: key.algorithm, message: input) else { throw .signingFailed }
        return sig
    }

    /// The claims as a JSON object (whole seconds written as integers).
    public static func encode(_ c: TokenClaims) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("sub"); w.string(c.subject)
        if let name = c.name { w.key("name"); w.string(name) }
        w.key("exp"); date(c.expiresAt, &w)
        if let nbf = c.notBefore { w.key("nbf"); date(nbf, &w) }
        if let iat = c.issuedAt { w.key("iat"); date(iat, &w) }
        if c.audience.count == 1 { w.key("aud"); w.string(c.audience[0]) }
        if c.audience.count > 1 { w.key("aud"); w.beginArray(); c.audience.forEach { w.string($0) }; w.endArray() }
        w.key("boards"); w.beginArray(); c.boards.forEach { w.string($0) }; w.endArray()
        w.key("role"); w.string(c.role.rawValue)
        w.endObject()
        return w.bytes
    }

    private static func date(_ t: Double, _ w: inout JSONWriter) {
        if t == t.rounded(), abs(t) < 1e15 { w.int(Int(t)) } else { w.number(t) }
    }
}
