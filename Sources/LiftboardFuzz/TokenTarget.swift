import LiftboardAuth
import LiftboardWire

/// What the token target has checked, printed at exit.
nonisolated(unsafe) var tokensTried = 0
nonisolated(unsafe) var tokensSignedAndRead = 0
nonisolated(unsafe) var tokensAccepted = 0

/// The keys the token target signs with (RFC 7515 A.1's HMAC secret, RFC 8037's Ed25519 pair),
/// and the verifier that holds their public parts.
let fuzzSigningKeys = try! KeySet.parse(Array("""
    {"keys":[{"kty":"oct","kid":"hs","k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"},\
    {"kty":"OKP","crv":"Ed25519","kid":"ed","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A"}]}
    """.utf8), allowPrivateKeys: true)
let fuzzVerifier = TokenVerifier(keys: try! KeySet.parse(Array("""
    {"keys":[{"kty":"oct","kid":"hs","k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"},\
    {"kty":"OKP","crv":"Ed25519","kid":"ed","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}
    """.utf8)), audience: nil, leewaySeconds: 60)
let fuzzNow = 1_800_000_000.0

/// The JWT reader and the claims checks on arbitrary bytes, three ways:
/// - the bytes as a token: refused or accepted, never a trap, the same way twice;
/// - split at the first `.` into header and payload JSON texts, encoded and signed with the key
///   the header names (HS256 otherwise), so the header and claims checks see arbitrary JSON
///   behind a valid signature;
/// - the bytes as a JWKS file and as a claims set.
/// An accepted token must hold what the verifier promises: its board granted, `sub` not
/// empty, `exp` not passed, and its claims minted again read back the same (when its times
/// are whole seconds, which the minter writes exactly, and the new token fits in 4 KB).
func fuzzToken(_ bytes: UnsafeRawBufferPointer) {
    tokensTried += 1
    let input = Array(bytes)
    let board = "demo"
    let first = verdict(input, board: board)
    if first != verdict(input, board: board) { fatalError("verify is not deterministic") }
    if case .success(let claims) = first { checkAccepted(claims, board: board) }
    if let dot = input.firstIndex(of: UInt8(ascii: ".")) {
        let header = input[..<dot], payload = input[(dot + 1)...]
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let kid: String? = if case .string(let k)? = (try? JSONParser.parse(header))?["kid"] { k } else { nil }
        let key = fuzzSigningKeys.key(kid ?? "hs") ?? fuzzSigningKeys.key("hs")!
        guard let signature = try? TokenMinter.sign(Array(input.utf8), key: key) else { fatalError("signing failed") }
        let token = Array((input + "." + Base64URL.encode(signature)).utf8)
        tokensSignedAndRead += 1
        if case .success(let claims) = verdict(token, board: board) {
            checkAccepted(claims, board: board)
        }
    }
    _ = try? KeySet.parse(input, allowPrivateKeys: input.first.map { $0 & 1 == 1 } ?? false)
    if let claims = try? TokenClaims.decode(input) {
        if claims.subject.isEmpty || !claims.expiresAt.isFinite { fatalError("decode accepted a claims set it must refuse") }
    }
}

private func verdict(_ token: [UInt8], board: String) -> Result<TokenClaims, TokenError> {
    do throws(TokenError) { return .success(try fuzzVerifier.verify(bytes: token, board: board, now: fuzzNow)) } catch { return .failure(error) }
}

private func checkAccepted(_ claims: TokenClaims, board: String) {
    tokensAccepted += 1
    guard claims.grants(board), !claims.subject.isEmpty, fuzzNow < claims.expiresAt + fuzzVerifier.leewaySeconds else {
        fatalError("an accepted token breaks a promise of the verifier")
    }
    let times = [claims.expiresAt, claims.notBefore ?? 0, claims.issuedAt ?? 0]
    guard times.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e15 }) else { return }
    let again = try! TokenMinter.mint(claims, key: fuzzSigningKeys.key("ed")!)
    guard again.utf8.count <= TokenVerifier.maxTokenBytes else { return }
    guard case .success(let reread) = verdict(Array(again.utf8), board: board), reread == claims else {
        fatalError("accepted claims minted again do not read back the same")
    }
}
