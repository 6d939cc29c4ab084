import CLibCrypto
import LiftboardWire

/// New keys from libcrypto's generators, as JWKs: `liftboard token keygen` and the benchmark.
public enum KeyGenerator {
    /// A new key of `algorithm` named `kid`: the JWK a signer keeps (the secret, or with `d`)
    /// and the one a verifier holds (the same secret, or without `d`). Nil if libcrypto fails.
    public static func generate(_ algorithm: SigningAlgorithm, kid: String) -> (signing: String, verifying: String)? {
        switch algorithm {
        case .hs256:
            var k = [UInt8](repeating: 0, count: 32)
            guard RAND_bytes(&k, 32) == 1 else { return nil }
            let jwk = jwk(["kty": "oct", "kid": kid, "alg": "HS256", "k": Base64URL.encode(k)])
            return (jwk, jwk)
        case .edDSA:
            guard let key = keygen(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil), group: nil) else { return nil }
            defer { EVP_PKEY_free(key) }
            var x = [UInt8](repeating: 0, count: 32), d = [UInt8](repeating: 0, count: 32)
            var xn = 32, dn = 32
            guard EVP_PKEY_get_raw_public_key(key, &x, &xn) == 1, EVP_PKEY_get_raw_private_key(key, &d, &dn) == 1,
                  xn == 32, dn == 32 else { return nil }
            let pub: [String: String] = ["kty": "OKP", "crv": "Ed25519", "kid": kid, "alg": "EdDSA", "x": Base64URL.encode(x)]
            return (jwk(pub.merging(["d": Base64URL.encode(d)]) { a, _ in a }), jwk(pub))
        case .es256:
            guard let key = keygen(EVP_PKEY_CTX_new_from_name(nil, "EC", nil), group: "P-256") else { return nil }
            defer { EVP_PKEY_free(key) }
            var point = [UInt8](repeating: 0, count: 65), n = 0
            var priv: OpaquePointer? = nil
            guard EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, &point, 65, &n) == 1, n == 65, point[0] == 4,
                  EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &priv) == 1, let priv else { return nil }
            defer { BN_clear_free(priv) }
            var d = [UInt8](repeating: 0, count: 32)
            guard BN_bn2binpad(priv, &d, 32) == 32 else { return nil }
            let pub: [String: String] = ["kty": "EC", "crv": "P-256", "kid": kid, "alg": "ES256",
                                         "x": Base64URL.encode(point[1...32]), "y": Base64URL.encode(point[33...64])]
            return (jwk(pub.merging(["d": Base64URL.encode(d)]) { a, _ in a }), jwk(pub))
        }
    }

    private static func keygen(_ ctx: OpaquePointer?, group: String?) -> OpaquePointer? {
        guard let ctx else { return nil }
        defer { EVP_PKEY_CTX_free(ctx) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(ctx) == 1, group.map({ EVP_PKEY_CTX_set_group_name(ctx, $0) == 1 }) ?? true,
              EVP_PKEY_generate(ctx, &key) == 1 else { clc_clear_errors(); return nil }
        return key
    }

    /// A JWK's text, members in a fixed order.
    private static func jwk(_ members: [String: String]) -> String {
        let order = ["kty", "crv", "kid", "alg", "k", "x", "y", "d"]
        var w = JSONWriter()
        w.beginObject()
        for name in order { if let v = members[name] { w.dynamicKey(name); w.string(v) } }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
