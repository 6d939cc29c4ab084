import Foundation
import Testing
@testable import LiftboardAuth

/// Published vectors and tokens from the openssl CLI: libcrypto's checks agree with them, and
/// the verifier takes its algorithm from the key alone.
@Suite struct VectorTests {
    /// RFC 7515 appendix A.1: the HS256 example's MAC verifies, and a flipped bit does not.
    @Test func rfc7515HS256() throws {
        let token = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let parts = token.split(separator: ".")
        let input = Array((parts[0] + "." + parts[1]).utf8)
        let secret = try #require(Base64URL.decode(Keys.rfc7515HS256.utf8))
        var mac = try #require(Base64URL.decode(parts[2].utf8))
        #expect(Signature.hs256(secret: secret, message: input[...]) == mac)
        #expect(Signature.verifyHS256(secret: secret, message: input[...], mac: mac))
        mac[31] ^= 1
        #expect(!Signature.verifyHS256(secret: secret, message: input[...], mac: mac))
        #expect(!Signature.verifyHS256(secret: secret, message: input[...], mac: Array(mac.prefix(31))))
        // Its header names no key, so the verifier refuses it before any signature check.
        let verifier = TokenVerifier(keys: Keys.verifying)
        #expect(throws: TokenError.unknownKey) { try verifier.verify(token, board: nil, now: 1_300_819_000) }
    }

    /// RFC 8037 appendix A.4/A.5: the Ed25519 example's signature verifies, and signing with the
    /// private key gives exactly that signature (Ed25519 is deterministic).
    @Test func rfc8037Ed25519() throws {
        let input = Array("eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc".utf8)
        var signature = try #require(Base64URL.decode(
            "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg".utf8))
        let key = try #require(Keys.signing.key("ed"))
        #expect(try TokenMinter.sign(input, key: key) == signature)
        let pub = try #require(Keys.verifying.key("ed")?.publicKey)
        #expect(Signature.verifyEdDSA(key: pub, message: input[...], signature: signature))
        signature[0] ^= 0x80
        #expect(!Signature.verifyEdDSA(key: pub, message: input[...], signature: signature))
    }

    /// A token made by the openssl CLI (Fixtures/make-es256.sh) verifies with the JWKS made
    /// beside it, and its claims read as written.
    @Test func opensslES256() throws {
        let keys = try KeySet.parse(Keys.fixture("es256.jwks.json"))
        let token = String(decoding: Keys.fixture("es256.token"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let verifier = TokenVerifier(keys: keys)
        let claims = try verifier.verify(token, board: "team-7", now: Keys.now)
        #expect(claims == TokenClaims(subject: "ada", name: "Ada", expiresAt: 2_000_000_000, issuedAt: 1_700_000_000,
                                      boards: ["demo", "team-*"], role: .edit))
        #expect(throws: TokenError.boardForbidden) { try verifier.verify(token, board: "other", now: Keys.now) }
        var bytes = Array(token.utf8)
        let last = bytes.count - 10
        bytes[last] = bytes[last] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: TokenError.badSignature) { try verifier.verify(bytes: bytes, board: "demo", now: Keys.now) }
    }

    /// Tokens this module mints verify, for each algorithm (ES256's random signatures included).
    @Test(arguments: ["hs", "ed", "ec-1"]) func mintedTokensVerify(kid: String) throws {
        let claims = Keys.claims(role: .view, boards: ["demo"])
        let token = try TokenMinter.mint(claims, key: #require(Keys.signing.key(kid)))
        #expect(try TokenVerifier(keys: Keys.verifying).verify(token, board: "demo", now: Keys.now) == claims)
    }
}

/// Keys from libcrypto's generators: the signer's JWK mints what the server's JWK verifies, and
/// the server's holds no private part.
@Suite struct KeyGeneratorTests {
    @Test(arguments: SigningAlgorithm.allCases) func generatedKeysSignAndVerify(algorithm: SigningAlgorithm) throws {
        let (signing, verifying) = try #require(KeyGenerator.generate(algorithm, kid: "new"))
        #expect(verifying.contains(#""d":"#) == false)
        #expect(signing.contains(#""d":"#) == (algorithm != .hs256))
        let signer = try #require(try KeySet.parse(Array(#"{"keys":[\#(signing)]}"#.utf8), allowPrivateKeys: true).key("new"))
        let verifier = TokenVerifier(keys: try KeySet.parse(Array(#"{"keys":[\#(verifying)]}"#.utf8)))
        let claims = Keys.claims()
        #expect(try verifier.verify(TokenMinter.mint(claims, key: signer), board: "demo", now: Keys.now) == claims)
        // Another generated key of the same kind and kid does not verify it.
        let (other, _) = try #require(KeyGenerator.generate(algorithm, kid: "new"))
        let stranger = try #require(try KeySet.parse(Array(#"{"keys":[\#(other)]}"#.utf8), allowPrivateKeys: true).key("new"))
        #expect(throws: TokenError.badSignature) { try verifier.verify(TokenMinter.mint(claims, key: stranger), board: "demo", now: Keys.now) }
    }
}
