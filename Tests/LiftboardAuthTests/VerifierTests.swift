import Foundation
import Testing
import LiftboardAuth
import LiftboardCore

/// Each refusal of the verifier, and the edges of what it accepts.
@Suite struct VerifierTests {
    let verifier = TokenVerifier(keys: Keys.verifying)
    let payload = #"{"sub":"ada","exp":1800000600,"boards":["demo"]}"#

    func verdict(_ token: String, board: String? = "demo", now: Double = Keys.now, audience: String? = nil) -> Result<TokenClaims, TokenError> {
        var v = verifier
        v.audience = audience
        do { return .success(try v.verify(token, board: board, now: now)) } catch { return .failure(error) }
    }

    func refusal(_ token: String, board: String? = "demo", now: Double = Keys.now, audience: String? = nil) -> TokenError? {
        if case .failure(let e) = verdict(token, board: board, now: now, audience: audience) { return e }
        return nil
    }

    @Test func theAlgorithmIsTheKeysNeverTheTokens() throws {
        let ok = Keys.token(payload, kid: "ed")
        #expect(refusal(ok) == nil)
        // alg none, with and without a signature, in any case.
        let body = Base64URL.encode(Array(payload.utf8))
        for alg in ["none", "None", "NONE"] {
            let head = Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"hs"}"#.utf8))
            #expect(refusal(head + "." + body + ".") == .algorithmRefused)
            #expect(refusal(head + "." + body + "." + ok.split(separator: ".")[2]) == .algorithmRefused)
        }
        // The classic confusion: HS256 keyed with an Ed25519 key's public bytes, naming that key.
        let edPublic = try #require(Base64URL.decode(Keys.rfc8037X.utf8))
        let confusedKeys = try KeySet.parse(Array(#"{"keys":[{"kty":"oct","kid":"ed","k":"\#(Base64URL.encode(edPublic))"}]}"#.utf8))
        let confused = try TokenMinter.mint(payload: Array(payload.utf8), key: #require(confusedKeys.key("ed")))
        #expect(refusal(confused) == .algorithmRefused)
        // A header alg that is another real algorithm than the key's.
        #expect(refusal(Keys.token(payload, kid: "hs", header: #"{"alg":"ES256","kid":"hs"}"#)) == .algorithmRefused)
        #expect(refusal(Keys.token(payload, kid: "hs", header: #"{"kid":"hs"}"#)) == .algorithmRefused)
        #expect(refusal(Keys.token(payload, kid: "hs", header: #"{"alg":"HS256","kid":"hs","crit":["exp"]}"#)) == .algorithmRefused)
        // Keys are named by kid alone.
        #expect(refusal(Keys.token(payload, kid: "hs", header: #"{"alg":"HS256","kid":"nope"}"#)) == .unknownKey)
        #expect(refusal(Keys.token(payload, kid: "hs", header: #"{"alg":"HS256"}"#)) == .unknownKey)
        #expect(refusal(Keys.token(payload, kid: "hs", header: #"{"alg":"HS256","kid":7}"#)) == .unknownKey)
    }

    @Test func aTamperedTokenIsRefused() throws {
        for kid in ["hs", "ed", "ec-1"] {
            let token = Keys.token(payload, kid: kid)
            let parts = token.split(separator: ".").map(String.init)
            let other = Base64URL.encode(Array(payload.replacingOccurrences(of: "ada", with: "eve").utf8))
            #expect(refusal(parts[0] + "." + other + "." + parts[2]) == .badSignature, "\(kid)")
            #expect(refusal(parts[0] + "." + parts[1] + ".") == .badSignature, "\(kid)")
            #expect(refusal(parts[0] + "." + parts[1] + "." + parts[2] + "AAAA") == .badSignature, "\(kid)")
        }
    }

    @Test func sizeIsCheckedBeforeAnythingElse() {
        let filler = String(repeating: "x", count: 4000)
        let big = Keys.token(#"{"sub":"ada","exp":1800000600,"boards":["demo"],"pad":"\#(filler)"}"#)
        #expect(big.utf8.count > TokenVerifier.maxTokenBytes)
        #expect(refusal(big) == .tooLarge)
        #expect(refusal(String(repeating: ".", count: 4097)) == .tooLarge)
        #expect(refusal(String(repeating: ".", count: 4096)) == .malformed(.segments))
        // A token of exactly 4,096 bytes is read.
        func padded(_ n: Int) -> String { Keys.token(#"{"sub":"ada","exp":1800000600,"boards":["demo"],"pad":"\#(String(repeating: "y", count: n))"}"#) }
        var n = 3100
        while padded(n).utf8.count > TokenVerifier.maxTokenBytes { n -= 1 }
        let exact = padded(n)
        #expect(exact.utf8.count <= TokenVerifier.maxTokenBytes && exact.utf8.count > TokenVerifier.maxTokenBytes - 4)
        #expect(refusal(exact) == nil)
    }

    @Test func malformedTokens() {
        let ok = Keys.token(payload)
        #expect(refusal(ok) == nil)
        let p = ok.split(separator: ".").map(String.init)
        #expect(refusal("") == .malformed(.segments))
        #expect(refusal(p[0] + "." + p[1]) == .malformed(.segments))
        #expect(refusal(ok + ".") == .malformed(.segments))
        #expect(refusal(ok + "=") == .malformed(.encoding))
        #expect(refusal(p[0] + "=." + p[1] + "." + p[2]) == .malformed(.encoding))
        #expect(refusal(p[0] + "." + p[1] + " ." + p[2]) == .malformed(.encoding))
        #expect(refusal(Keys.token(payload, header: "[1]")) == .malformed(.header))
        #expect(refusal(Keys.token(payload, header: #"{"alg":"HS256","kid":"hs","kid":"hs"}"#)) == .malformed(.header))
        #expect(refusal(Keys.token(payload, header: #"{"alg":"HS256","kid":"hs""#)) == .malformed(.header))
        // The payload is read only after the signature verifies.
        #expect(refusal(Keys.token("not json")) == .malformed(.payload))
        #expect(refusal(Keys.token(#"{"sub":"a","sub":"b","exp":1800000600}"#)) == .malformed(.payload))
    }

    @Test func claimsTypes() {
        func claimRefusal(_ json: String) -> TokenError? { refusal(Keys.token(json), board: nil) }
        #expect(claimRefusal(#"{"exp":1800000600}"#) == .invalidClaim(.sub))
        #expect(claimRefusal(#"{"sub":"","exp":1800000600}"#) == .invalidClaim(.sub))
        #expect(claimRefusal(#"{"sub":7,"exp":1800000600}"#) == .invalidClaim(.sub))
        #expect(claimRefusal(#"{"sub":"ada"}"#) == .invalidClaim(.exp))
        #expect(claimRefusal(#"{"sub":"ada","exp":"1800000600"}"#) == .invalidClaim(.exp))
        #expect(claimRefusal(#"{"sub":"ada","exp":1800000600,"nbf":true}"#) == .invalidClaim(.nbf))
        #expect(claimRefusal(#"{"sub":"ada","exp":1800000600,"iat":null}"#) == .invalidClaim(.iat))
        #expect(claimRefusal(#"{"sub":"ada","exp":1800000600,"name":["A"]}"#) == .invalidClaim(.name))
        #expect(claimRefusal(#"{"sub":"ada","exp":1800000600,"aud":["a",1]}"#) == .invalidClaim(.aud))
        #expect(claimRefusal(#"{"sub":"ada","exp":1800000600,"boards":"demo"}"#) == .invalidClaim(.boards))
        #expect(claimRefusal(#"{"sub":"ada","exp":1800000600,"role":"owner"}"#) == .invalidClaim(.role))
        #expect(claimRefusal(#"{"sub":"ada","exp":1800000600,"role":"Edit"}"#) == .invalidClaim(.role))
        // Unknown claims are ignored; role defaults to move; no boards grants none.
        guard case .success(let c) = verdict(Keys.token(#"{"sub":"ada","exp":1800000600,"iss":"x","x":{"y":[1]}}"#), board: nil) else {
            Issue.record("a token with unknown claims is refused"); return
        }
        #expect(c.role == .move && c.boards.isEmpty && !c.grants("demo") && c.name == nil)
    }

    @Test func timesWithTheirLeeway() {
        let exp = Keys.now + 100
        let token = Keys.token(#"{"sub":"ada","exp":\#(Int(exp)),"nbf":\#(Int(exp - 200)),"boards":["demo"]}"#)
        #expect(refusal(token, now: exp + 59) == nil)
        #expect(refusal(token, now: exp + 60) == .expired)
        #expect(refusal(token, now: exp - 200 - 60) == nil)
        #expect(refusal(token, now: exp - 200 - 61) == .notYetValid)
        let strict = TokenVerifier(keys: Keys.verifying, leewaySeconds: 0)
        #expect(throws: TokenError.expired) { try strict.verify(token, board: "demo", now: exp) }
        #expect(throws: TokenError.notYetValid) { try strict.verify(token, board: "demo", now: exp - 201) }
        let future = Keys.token(#"{"sub":"ada","exp":\#(Int(exp)),"iat":\#(Int(Keys.now + 61)),"boards":["demo"]}"#)
        #expect(refusal(future) == .notYetValid)
        let fractional = Keys.token(#"{"sub":"ada","exp":\#(Int(exp) - 60).5,"boards":["demo"]}"#)
        #expect(refusal(fractional, now: exp) == nil)
        #expect(refusal(fractional, now: exp + 0.5) == .expired)
    }

    @Test func audience() {
        let one = Keys.token(#"{"sub":"ada","exp":1800000600,"aud":"board-app","boards":["demo"]}"#)
        let many = Keys.token(#"{"sub":"ada","exp":1800000600,"aud":["other","board-app"],"boards":["demo"]}"#)
        let none = Keys.token(payload)
        #expect(refusal(one, audience: "board-app") == nil)
        #expect(refusal(many, audience: "board-app") == nil)
        #expect(refusal(one, audience: "other") == .audienceMismatch)
        #expect(refusal(none, audience: "board-app") == .audienceMismatch)
        #expect(refusal(one) == nil)
    }

    @Test func boardsAndPrefixes() {
        let token = Keys.token(#"{"sub":"ada","exp":1800000600,"boards":["demo","team-*"]}"#)
        for board in ["demo", "team-", "team-a", "team-a*"] { #expect(refusal(token, board: board) == nil, "\(board)") }
        for board in ["demo2", "dem", "team", "Team-a", ""] { #expect(refusal(token, board: board) == .boardForbidden, "\(board)") }
        #expect(refusal(token, board: nil) == nil)
        let all = TokenClaims(subject: "op", expiresAt: 0, boards: ["*"])
        #expect(all.grants("anything") && all.grants(""))
    }

    @Test func rolesAreOrdered() {
        #expect(Role.allCases == [.view, .move, .edit, .admin])
        #expect(Role.allCases.sorted() == Role.allCases)
        #expect(Role.admin.includes(.edit) && Role.edit.includes(.move) && Role.move.includes(.view) && Role.view.includes(.view))
        #expect(!Role.view.includes(.move) && !Role.move.includes(.edit) && !Role.edit.includes(.admin))
    }

    /// Codes are stable and distinct where the cause differs; no message holds the token.
    @Test func errorsCarryCodesAndNeverTheToken() {
        let token = Keys.token(#"{"sub":"ada","exp":1,"boards":["demo"]}"#)
        var errors: [TokenError] = [.tooLarge, .algorithmRefused, .unknownKey, .badSignature, .expired, .notYetValid,
                                    .audienceMismatch, .boardForbidden]
        errors += [.segments, .encoding, .header, .payload].map { TokenError.malformed($0) }
        errors += TokenError.Claim.allCases.map { TokenError.invalidClaim($0) }
        #expect(Set(errors.map(\.code)) == ["token_too_large", "token_invalid", "algorithm_refused", "unknown_key",
                                            "signature_invalid", "claim_invalid", "token_expired", "token_not_yet_valid",
                                            "audience_mismatch", "board_forbidden"])
        #expect(errors.filter { $0.httpStatus == 403 } == [.boardForbidden])
        #expect(refusal(token) == .expired)
        for e in errors {
            for part in token.split(separator: ".") { #expect(!e.description.contains(part), "\(e.code)") }
        }
    }
}
