import LiftboardWire

/// One key of a JWKS: its `kid`, the one algorithm it verifies, and its material.
public struct TokenKey: Sendable {
    public let kid: String
    public let algorithm: SigningAlgorithm
    /// HS256: the shared secret, which both signs and verifies.
    let secret: [UInt8]
    /// EdDSA and ES256: the public key.
    let publicKey: EVPKey?
    /// EdDSA and ES256: the private key, only when the file holds one (`d`) and was read with
    /// `allowPrivateKeys` (`liftboard token mint`).
    let privateKey: EVPKey?

    /// Whether this key can sign (`liftboard token mint`): a secret, or a private key.
    public var canSign: Bool { algorithm == .hs256 || privateKey != nil }
}

/// Why a JWKS file cannot be used: the key (its index in `keys`, and its `kid` when it has
/// one) and the reason, both in `description`.
public struct KeySetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key's index in `keys` (from 0), nil for a fault of the file as a whole.
    public var index: Int?
    public var kid: String?
    public var reason: String

    public var description: String {
        guard let index else { return reason }
        return "key \(index)\(kid.map { " (kid \"\($0)\")" } ?? ""): \(reason)"
    }
}

/// The verification keys of a JWKS (RFC 7517 §5): `{"keys": [...]}`, each key with a distinct
/// `kid` and of one of three kinds: `oct` (HS256, a secret of at least 32 bytes), `OKP` with
/// `crv` `Ed25519` (EdDSA) and `EC` with `crv` `P-256` (ES256). A key's optional `alg` must be
/// its kind's algorithm, `use` must be `sig` and `key_ops` must include `verify`. Any other
/// key, or member of the wrong type, refuses the whole file.
public struct KeySet: Sendable {
    public private(set) var keys: [TokenKey] = []

    /// The key `kid` names.
    public func key(_ kid: String) -> TokenKey? { keys.first { $0.kid == kid } }

    /// Reads a JWKS. A verifier's file needs public keys only, and one holding a private key
    /// (`d`) is refused unless `allowPrivateKeys` (a key file for minting).
    public static func parse(_ bytes: [UInt8], allowPrivateKeys: Bool = false) throws(KeySetError) -> KeySet {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch { throw KeySetError(reason: "not JSON: \(error)") }
        guard case .object(let top) = root, JWTObject.hasDistinctNames(top) else {
            throw KeySetError(reason: "not a JWKS: the file is not a JSON object with distinct member names")
        }
        guard case .array(let entries)? = root["keys"] else { throw KeySetError(reason: "not a JWKS: no \"keys\" array") }
        guard !entries.isEmpty else { throw KeySetError(reason: "the JWKS holds no key") }
        var set = KeySet()
        for (i, entry) in entries.enumerated() {
            let kid: String? = if case .string(let k)? = entry["kid"] { k } else { nil }
            do throws(Refusal) {
                let key = try readKey(entry, allowPrivate: allowPrivateKeys)
                if set.key(key.kid) != nil { throw Refusal("kid \"\(key.kid)\" is used by an earlier key") }
                set.keys.append(key)
            } catch {
                throw KeySetError(index: i, kid: kid, reason: error.reason)
            }
        }
        return set
    }

    private init() {}

    private struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func readKey(_ entry: JSONValue, allowPrivate: Bool) throws(Refusal) -> TokenKey {
        guard case .object(let fields) = entry, JWTObject.hasDistinctNames(fields) else {
            throw Refusal("not a JSON object with distinct member names")
        }
        guard case .string(let kid)? = entry["kid"], !kid.isEmpty else { throw Refusal("no \"kid\" (a non-empty string)") }
        guard case .string(let kty)? = entry["kty"] else { throw Refusal("no \"kty\"") }
        let algorithm: SigningAlgorithm
        switch kty {
        case "oct": algorithm = .hs256
        case "OKP":
            guard case .string("Ed25519")? = entry["crv"] else { throw Refusal("an OKP key must have \"crv\": \"Ed25519\"") }
            algorithm = .edDSA
        case "EC":
            guard case .string("P-256")? = entry["crv"] else { throw Refusal("an EC key must have \"crv\": \"P-256\"") }
            algorithm = .es256
        default: throw Refusal("\"kty\" \"\(kty)\" is not supported (oct, OKP or EC)")
        }
        switch entry["alg"] {
        case nil: break
        case .string(let alg)? where alg == algorithm.rawValue: break
        default: throw Refusal("\"alg\" must be \"\(algorithm.rawValue)\" for a \(kty) key")
        }
        switch entry["use"] {
        case nil, .string("sig")?: break
        default: throw Refusal("\"use\" must be \"sig\"")
        }
        switch entry["key_ops"] {
        case nil: break
        case .array(let ops)? where ops.contains(.string("verify")): break
        default: throw Refusal("\"key_ops\" must include \"verify\"")
        }
        let d = algorithm == .hs256 ? nil : try bytes(entry, "d", count: 32, optional: true)
        if d != nil, !allowPrivate {
            throw Refusal("holds a private key (\"d\"): a verification key file holds public keys only")
        }
        switch algorithm {
        case .hs256:
            let k = try bytes(entry, "k", count: nil, optional: false)!
            guard k.count >= 32 else { throw Refusal("an HS256 secret must be at least 32 bytes (RFC 7518 §3.2), not \(k.count)") }
            return TokenKey(kid: kid, algorithm: .hs256, secret: k, publicKey: nil, privateKey: nil)
        case .edDSA:
            let x = try bytes(entry, "x", count: 32, optional: false)!
            guard let pub = EVPKey.ed25519(public: x) else { throw Refusal("libcrypto refuses its \"x\"") }
            let priv = try d.map { d throws(Refusal) in
                guard let k = EVPKey.ed25519(private: d) else { throw Refusal("libcrypto refuses its \"d\"") }
                return k
            }
            return TokenKey(kid: kid, algorithm: .edDSA, secret: [], publicKey: pub, privateKey: priv)
        case .es256:
            let x = try bytes(entry, "x", count: 32, optional: false)!
            let y = try bytes(entry, "y", count: 32, optional: false)!
            guard let pub = EVPKey.p256(x: x, y: y) else { throw Refusal("\"x\" and \"y\" are not a point of P-256") }
            let priv = try d.map { d throws(Refusal) in
                guard let k = EVPKey.p256(x: x, y: y, d: d) else { throw Refusal("\"d\" is not the private key of \"x\" and \"y\"") }
                return k
            }
            return TokenKey(kid: kid, algorithm: .es256, secret: [], publicKey: pub, privateKey: priv)
        }
    }

    /// A base64url member of `count` bytes (any length when nil).
    private static func bytes(_ entry: JSONValue, _ name: String, count: Int?, optional: Bool) throws(Refusal) -> [UInt8]? {
        guard let v = entry[name] else {
            if optional { return nil }
            throw Refusal("no \"\(name)\"")
        }
        guard case .string(let text) = v, let decoded = Base64URL.decode(text.utf8) else {
            throw Refusal("\"\(name)\" is not unpadded base64url")
        }
        if let count, decoded.count != count { throw Refusal("\"\(name)\" must be \(count) bytes, not \(decoded.count)") }
        return decoded
    }
}
