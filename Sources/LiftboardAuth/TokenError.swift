/// Why a token is refused: one closed set, each case with a stable `code` (for an HTTP error
/// body or a close reason) and a fixed `description`. No case carries any byte of the token,
/// so an error can be logged or sent back as it is.
public enum TokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Longer than `TokenVerifier.maxTokenBytes`: refused before a byte of it is parsed.
    case tooLarge
    /// Not a compact JWS (RFC 7515 §7.1): see `TokenFlaw` for which part.
    case malformed(TokenFlaw)
    /// The header's `alg` is missing, `none`, or not the algorithm of the key its `kid` names,
    /// or the header lists `crit` extensions (none is understood here).
    case algorithmRefused
    /// The header names no `kid`, or one the key set does not hold.
    case unknownKey
    /// The signature does not verify under the key `kid` names.
    case badSignature
    /// A claim is missing (`sub`, `exp`) or has the wrong type or value.
    case invalidClaim(Claim)
    /// `exp` has passed, leeway included.
    case expired
    /// `nbf` (or `iat`) is still to come, leeway included.
    case notYetValid
    /// An audience is configured and `aud` does not name it.
    case audienceMismatch
    /// The token's `boards` do not name the board asked for.
    case boardForbidden

    /// The part of a token that is not well formed.
    public enum TokenFlaw: String, Hashable, Sendable {
        /// Not three segments separated by two dots.
        case segments
        /// A segment that is not canonical unpadded base64url.
        case encoding
        /// A header that is not a JSON object with distinct member names.
        case header
        /// A payload that is not a JSON object with distinct member names.
        case payload
    }

    /// The registered and Liftboard claims that are checked.
    public enum Claim: String, Hashable, Sendable, CaseIterable {
        case sub, name, exp, nbf, iat, aud, boards, role
    }

    /// The stable machine-readable reason.
    public var code: String {
        switch self {
        case .tooLarge: "token_too_large"
        case .malformed: "token_invalid"
        case .algorithmRefused: "algorithm_refused"
        case .unknownKey: "unknown_key"
        case .badSignature: "signature_invalid"
        case .invalidClaim: "claim_invalid"
        case .expired: "token_expired"
        case .notYetValid: "token_not_yet_valid"
        case .audienceMismatch: "audience_mismatch"
        case .boardForbidden: "board_forbidden"
        }
    }

    /// The HTTP status a refusal maps to: 403 for a valid token that does not name the
    /// board, 401 for every token that is not accepted at all.
    public var httpStatus: Int { self == .boardForbidden ? 403 : 401 }

    public var description: String {
        switch self {
        case .tooLarge: "the token is longer than \(TokenVerifier.maxTokenBytes) bytes"
        case .malformed(.segments): "the token is not three dot-separated segments"
        case .malformed(.encoding): "a segment of the token is not unpadded base64url"
        case .malformed(.header): "the token's header is not a JSON object with distinct member names"
        case .malformed(.payload): "the token's payload is not a JSON object with distinct member names"
        case .algorithmRefused: "the token's algorithm is not the one of the key it names"
        case .unknownKey: "the token names no known key (kid)"
        case .badSignature: "the token's signature does not verify"
        case .invalidClaim(.sub): "the token's 'sub' is missing or not a non-empty string"
        case .invalidClaim(.exp): "the token's 'exp' is missing or not a number"
        case .invalidClaim(.aud): "the token's 'aud' is not a string or an array of strings"
        case .invalidClaim(.boards): "the token's 'boards' is not an array of strings"
        case .invalidClaim(.role): "the token's 'role' is not one of view, move, edit, admin"
        case .invalidClaim(let c): "the token's '\(c.rawValue)' has the wrong type"
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet"
        case .audienceMismatch: "the token is for another audience"
        case .boardForbidden: "the token does not grant this board"
        }
    }
}
