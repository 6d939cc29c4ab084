import ArgumentParser
import Foundation
import LiftboardAuth

/// `liftboard bench tokens`: what one token verification costs, per algorithm (issue 42:
/// verification will run on the service thread). Each row verifies one freshly minted token,
/// claims and board check included, on one thread.
struct BenchTokens: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Token verifications per second and CPU per verification: HS256, EdDSA, ES256.")

    @Flag(help: "Print one JSON object instead of a table.") var json = false
    @Flag(help: "Few verifications: a smoke run (its numbers mean little).") var quick = false
    @Option(help: "Seconds to measure each algorithm.") var seconds: Double = 2

    struct Row: Codable {
        var algorithm: String
        var verifications: Int
        var perSecond: Double
        var cpuMicrosPerVerification: Double
        var tokenBytes: Int
    }

    func run() throws {
        var rows: [Row] = []
        for algorithm in SigningAlgorithm.allCases {
            guard let (signing, verifying) = KeyGenerator.generate(algorithm, kid: "bench") else {
                throw ValidationError("libcrypto could not make an \(algorithm.rawValue) key")
            }
            let signer = try KeySet.parse(Array(#"{"keys":[\#(signing)]}"#.utf8), allowPrivateKeys: true).keys[0]
            let verifier = TokenVerifier(keys: try KeySet.parse(Array(#"{"keys":[\#(verifying)]}"#.utf8)))
            let now = Date().timeIntervalSince1970.rounded(.down)
            let claims = TokenClaims(subject: "user-1234", name: "Ada Lovelace", expiresAt: now + 3600, issuedAt: now,
                                     audience: ["liftboard"], boards: ["team-*", "demo"], role: .edit)
            let token = Array(try TokenMinter.mint(claims, key: signer).utf8)
            rows.append(try Self.measure(algorithm, token: token, verifier: verifier, now: now, seconds: quick ? 0.1 : seconds))
        }
        if json { return try BenchCommand.printJSON(rows: rows) }
        print("algorithm  token bytes  verifications/s  CPU per verification")
        for r in rows {
            print(String(format: "%-9@ %12d %16.0f %18.2fµs", r.algorithm as NSString, r.tokenBytes, r.perSecond,
                         r.cpuMicrosPerVerification))
        }
    }

    /// Verifies in batches until `seconds` of wall time have passed.
    static func measure(_ algorithm: SigningAlgorithm, token: [UInt8], verifier: TokenVerifier, now: Double,
                        seconds: Double) throws -> Row {
        _ = try verifier.verify(bytes: token, board: "team-7", now: now)
        let wall0 = clock(CLOCK_MONOTONIC), cpu0 = clock(CLOCK_THREAD_CPUTIME_ID)
        var n = 0
        while clock(CLOCK_MONOTONIC) - wall0 < seconds {
            for _ in 0..<64 {
                guard (try? verifier.verify(bytes: token, board: "team-7", now: now)) != nil else {
                    throw ValidationError("a valid \(algorithm.rawValue) token was refused")
                }
            }
            n += 64
        }
        let wall = clock(CLOCK_MONOTONIC) - wall0, cpu = clock(CLOCK_THREAD_CPUTIME_ID) - cpu0
        return Row(algorithm: algorithm.rawValue, verifications: n, perSecond: Double(n) / wall,
                   cpuMicrosPerVerification: cpu / Double(n) * 1e6, tokenBytes: token.count)
    }

    private static func clock(_ id: clockid_t) -> Double {
        var t = timespec()
        clock_gettime(id, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
