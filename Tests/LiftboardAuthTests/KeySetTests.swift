import Foundation
import Testing
import LiftboardAuth

/// A JWKS that cannot be used is refused whole, naming the key and the reason.
@Suite struct KeySetTests {
    static let secret = "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA"  // 33 bytes
    static let ed = #"{"kty":"OKP","crv":"Ed25519","kid":"ed","x":"\#(Keys.rfc8037X)"}"#

    func refusal(_ text: String, allowPrivateKeys: Bool = false) -> KeySetError? {
        do { _ = try KeySet.parse(Array(text.utf8), allowPrivateKeys: allowPrivateKeys); return nil } catch { return error }
    }

    @Test func aGoodSetReadsEveryKind() throws {
        let set = try KeySet.parse(Array(#"{"keys":[{"kty":"oct","kid":"a","k":"\#(Self.secret)","alg":"HS256","use":"sig"},\#(Self.ed),\#(Keys.es256Private.replacingD())]}"#.utf8))
        #expect(set.keys.map(\.kid) == ["a", "ed", "ec-1"])
        #expect(set.keys.map(\.algorithm) == [.hs256, .edDSA, .es256])
        #expect(set.keys.map(\.canSign) == [true, false, false])
        #expect(set.key("ed")?.algorithm == .edDSA && set.key("b") == nil)
    }

    @Test func theFileAsAWhole() {
        #expect(refusal("")?.description.hasPrefix("not JSON: invalid JSON at byte 0") == true)
        #expect(refusal("[]")?.index == nil)
        #expect(refusal(#"{"keys":{}}"#)?.description == #"not a JWKS: no "keys" array"#)
        #expect(refusal(#"{"keys":[]}"#)?.description == "the JWKS holds no key")
        #expect(refusal(#"{"keys":[\#(Self.ed)],"keys":[]}"#)?.index == nil)
    }

    @Test func eachKeyIsNamedWithItsReason() {
        let cases: [(String, String)] = [
            (#"{"kty":"RSA","kid":"r","n":"AQAB","e":"AQAB"}"#, #"key 1 (kid "r"): "kty" "RSA" is not supported (oct, OKP or EC)"#),
            (#"{"kty":"oct","k":"\#(Self.secret)"}"#, #"key 1: no "kid" (a non-empty string)"#),
            (#"{"kty":"oct","kid":"ed","k":"\#(Self.secret)"}"#, #"key 1 (kid "ed"): kid "ed" is used by an earlier key"#),
            (#"{"kty":"oct","kid":"s","k":"c2hvcnQ"}"#, #"key 1 (kid "s"): an HS256 secret must be at least 32 bytes (RFC 7518 §3.2), not 5"#),
            (#"{"kty":"oct","kid":"s","k":"\#(Self.secret)="}"#, #"key 1 (kid "s"): "k" is not unpadded base64url"#),
            (#"{"kty":"oct","kid":"s","k":"\#(Self.secret)","alg":"HS512"}"#, #"key 1 (kid "s"): "alg" must be "HS256" for a oct key"#),
            (#"{"kty":"oct","kid":"s","k":"\#(Self.secret)","use":"enc"}"#, #"key 1 (kid "s"): "use" must be "sig""#),
            (#"{"kty":"oct","kid":"s","k":"\#(Self.secret)","key_ops":["sign"]}"#, #"key 1 (kid "s"): "key_ops" must include "verify""#),
            (#"{"kty":"OKP","crv":"Ed448","kid":"e","x":"AA"}"#, #"key 1 (kid "e"): an OKP key must have "crv": "Ed25519""#),
            (#"{"kty":"OKP","crv":"Ed25519","kid":"e","x":"AAAA"}"#, #"key 1 (kid "e"): "x" must be 32 bytes, not 3"#),
            (#"{"kty":"EC","crv":"P-384","kid":"c","x":"AA","y":"AA"}"#, #"key 1 (kid "c"): an EC key must have "crv": "P-256""#),
            (#"{"kty":"EC","crv":"P-256","kid":"c","x":"\#(String(repeating: "A", count: 43))","y":"\#(String(repeating: "A", count: 42))E"}"#,
             #"key 1 (kid "c"): "x" and "y" are not a point of P-256"#),
            (#"{"kty":"OKP","crv":"Ed25519","kid":"p","x":"\#(Keys.rfc8037X)","d":"\#(Keys.rfc8037D)"}"#,
             #"key 1 (kid "p"): holds a private key ("d"): a verification key file holds public keys only"#),
        ]
        for (key, reason) in cases {
            #expect(refusal(#"{"keys":[\#(Self.ed),\#(key)]}"#)?.description == reason)
        }
    }

    @Test func privateKeysWhenMinting() throws {
        let withD = #"{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"p","x":"\#(Keys.rfc8037X)","d":"\#(Keys.rfc8037D)"}]}"#
        #expect(try KeySet.parse(Array(withD.utf8), allowPrivateKeys: true).key("p")?.canSign == true)
        // A "d" that is not the pair's private key.
        let mismatched = Keys.es256Private.replacingD(with: "AQ" + String(repeating: "A", count: 41))
        #expect(refusal(#"{"keys":[\#(mismatched)]}"#, allowPrivateKeys: true)?.description
                == #"key 0 (kid "ec-1"): "d" is not the private key of "x" and "y""#)
        #expect(throws: TokenMinter.MintError.noPrivateKey(kid: "ed")) {
            try TokenMinter.mint(Keys.claims(), key: try #require(Keys.verifying.key("ed")))
        }
    }
}

extension String {
    /// A JWK's text without its "d" member, or with another value for it.
    func replacingD(with value: String? = nil) -> String {
        guard let range = self.range(of: #","d":""#) else { return self }
        let end = self[range.upperBound...].firstIndex(of: "\"")!
        return String(self[..<range.lowerBound]) + (value.map { #","d":"\#($0)""# } ?? "") + String(self[self.index(after: end)...])
    }
}
