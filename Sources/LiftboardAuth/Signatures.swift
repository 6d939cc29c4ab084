import CLibCrypto

/// The signature algorithms a key may have (RFC 7518 §3.2 and §3.4, RFC 8037 §3.1). A key has
/// exactly one, fixed by its type; a token's header never chooses it.
public enum SigningAlgorithm: String, Hashable, Sendable, CaseIterable {
    /// HMAC with SHA-256 over a shared secret (`oct` keys).
    case hs256 = "HS256"
    /// Ed25519 (`OKP` keys with `crv` `Ed25519`).
    case edDSA = "EdDSA"
    /// ECDSA on P-256 with SHA-256 (`EC` keys with `crv` `P-256`); signatures are r || s.
    case es256 = "ES256"
}

/// A libcrypto key (EVP_PKEY), freed with its last reference. libcrypto allows concurrent
/// verifications with one key, so it is shared across threads as it is.
final class EVPKey: @unchecked Sendable {
    let pkey: OpaquePointer

    init(_ pkey: OpaquePointer) { self.pkey = pkey }
    deinit { EVP_PKEY_free(pkey) }

    /// An Ed25519 key from its 32 public bytes, or from its 32 private bytes.
    static func ed25519(public x: [UInt8]) -> EVPKey? {
        EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, x, x.count).map(EVPKey.init) ?? failed()
    }

    static func ed25519(private d: [UInt8]) -> EVPKey? {
        EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, d, d.count).map(EVPKey.init) ?? failed()
    }

    /// A P-256 key from its affine coordinates (32 bytes each), and its private scalar when
    /// given: nil when the point is not on the curve (or the scalar does not match it).
    static func p256(x: [UInt8], y: [UInt8], d: [UInt8]? = nil) -> EVPKey? {
        let point = [0x04] + x + y
        let key = d.map { d in clc_p256_key(point, point.count, d, d.count) } ?? clc_p256_key(point, point.count, nil, 0)
        return key.map(EVPKey.init) ?? failed()
    }

    private static func failed() -> EVPKey? {
        clc_clear_errors()
        return nil
    }
}

/// Signature checks and signing, each one libcrypto call chain; nothing cryptographic here.
enum Signature {
    /// Whether `mac` is the HMAC-SHA-256 of `message` under `secret`, compared in constant time.
    static func verifyHS256(secret: [UInt8], message: ArraySlice<UInt8>, mac: [UInt8]) -> Bool {
        guard mac.count == 32, let expected = hs256(secret: secret, message: message) else { return false }
        return CRYPTO_memcmp(expected, mac, 32) == 0
    }

    static func hs256(secret: [UInt8], message: ArraySlice<UInt8>) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = secret.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &out, &length) != nil
            }
        }
        guard ok, length == 32 else { return nil }
        return Array(out[..<32])
    }

    /// Ed25519 (one shot: EdDSA takes no digest).
    static func verifyEdDSA(key: EVPKey, message: ArraySlice<UInt8>, signature: [UInt8]) -> Bool {
        guard signature.count == 64 else { return false }
        return digestVerify(key: key, digest: nil, message: message, der: signature)
    }

    /// ECDSA P-256 SHA-256: the JWS signature (r || s, 32 bytes each, RFC 7518 §3.4) is turned
    /// into the DER ECDSA-Sig-Value libcrypto verifies.
    static func verifyES256(key: EVPKey, message: ArraySlice<UInt8>, signature: [UInt8]) -> Bool {
        guard signature.count == 64, let der = derSignature(rs: signature) else { return false }
        return digestVerify(key: key, digest: EVP_sha256(), message: message, der: der)
    }

    private static func derSignature(rs: [UInt8]) -> [UInt8]? {
        guard let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let r = rs.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = rs.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r); BN_free(s)
            return nil
        }
        var der: UnsafeMutablePointer<UInt8>? = nil
        let n = i2d_ECDSA_SIG(sig, &der)
        guard n > 0, let der else { return nil }
        defer { CRYPTO_free(der, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: der, count: Int(n)))
    }

    private static func digestVerify(key: EVPKey, digest: OpaquePointer?, message: ArraySlice<UInt8>, der: [UInt8]) -> Bool {
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        let ok = EVP_DigestVerifyInit(ctx, nil, digest, nil, key.pkey) == 1 && message.withUnsafeBufferPointer { m in
            EVP_DigestVerify(ctx, der, der.count, m.baseAddress, m.count) == 1
        }
        if !ok { clc_clear_errors() }
        return ok
    }

    /// A JWS signature of `message` by a private key: Ed25519's 64 bytes, or ECDSA's DER
    /// signature turned into r || s. For `liftboard token mint` and the tests.
    static func sign(key: EVPKey, algorithm: SigningAlgorithm, message: [UInt8]) -> [UInt8]? {
        guard let ctx = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(ctx) }
        let digest = algorithm == .es256 ? EVP_sha256() : nil
        guard EVP_DigestSignInit(ctx, nil, digest, nil, key.pkey) == 1 else { clc_clear_errors(); return nil }
        var length = 0
        guard EVP_DigestSign(ctx, nil, &length, message, message.count) == 1 else { clc_clear_errors(); return nil }
        var out = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(ctx, &out, &length, message, message.count) == 1 else { clc_clear_errors(); return nil }
        out.removeLast(out.count - length)
        return algorithm == .es256 ? rawSignature(der: out) : out
    }

    private static func rawSignature(der: [UInt8]) -> [UInt8]? {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_ECDSA_SIG(nil, &p, der.count)
        }
        guard let sig = parsed else { return nil }
        defer { ECDSA_SIG_free(sig) }
        var out = [UInt8](repeating: 0, count: 64)
        guard let r = ECDSA_SIG_get0_r(sig), let s = ECDSA_SIG_get0_s(sig),
              BN_bn2binpad(r, &out, 32) == 32,
              out.withUnsafeMutableBufferPointer({ BN_bn2binpad(s, $0.baseAddress! + 32, 32) }) == 32 else { return nil }
        return out
    }
}
