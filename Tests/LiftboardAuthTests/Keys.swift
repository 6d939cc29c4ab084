import Foundation
import LiftboardAuth
import LiftboardCore

/// The keys the tests sign and verify with.
enum Keys {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func fixture(_ name: String) -> [UInt8] {
        Array(try! Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    /// RFC 7515 appendix A.1's HMAC key.
    static let rfc7515HS256 = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
    /// RFC 8037 appendix A.1's Ed25519 key pair.
    static let rfc8037D = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"
    static let rfc8037X = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"

    /// The ES256 fixture key's members (Fixtures/make-es256.sh, from the openssl CLI).
    static var es256Private: String {
        let text = String(decoding: fixture("es256-private.jwks.json"), as: UTF8.self)
        let start = text.range(of: "[")!.upperBound, end = text.range(of: "]", options: .backwards)!.lowerBound
        return String(text[start..<end])
    }

    /// One key of each kind, private parts included (for minting).
    static let signing = try! KeySet.parse(Array("""
    {"keys":[{"kty":"oct","kid":"hs","k":"\(rfc7515HS256)"},\
    {"kty":"OKP","crv":"Ed25519","kid":"ed","x":"\(rfc8037X)","d":"\(rfc8037D)"},\(es256Private)]}
    """.utf8), allowPrivateKeys: true)

    /// The same keys as a server holds them: public parts only.
    static let verifying = try! KeySet.parse(Array("""
    {"keys":[{"kty":"oct","kid":"hs","k":"\(rfc7515HS256)"},{"kty":"OKP","crv":"Ed25519","kid":"ed","x":"\(rfc8037X)"},\
    \(String(decoding: fixture("es256.jwks.json"), as: UTF8.self).split(separator: "[")[1].split(separator: "]")[0])]}
    """.utf8))

    static let now = 1_800_000_000.0

    static func claims(role: Role = .move, boards: [String] = ["demo"]) -> TokenClaims {
        TokenClaims(subject: "ada", name: "Ada", expiresAt: now + 600, issuedAt: now - 5, boards: boards, role: role)
    }

    /// A token of `payload` (JSON text) signed by key `kid`, with the header given or the default one.
    static func token(_ payload: String, kid: String = "hs", header: String? = nil) -> String {
        let key = signing.key(kid)!
        let head = header ?? #"{"alg":"\#(key.algorithm.rawValue)","kid":"\#(kid)"}"#
        let input = Base64URL.encode(Array(head.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        return input + "." + Base64URL.encode(try! TokenMinter.sign(Array(input.utf8), key: key))
    }
}
