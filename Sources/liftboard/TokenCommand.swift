import ArgumentParser
import Foundation
import LiftboardAuth
import LiftboardCore
import LiftboardWire

/// `liftboard token`: keys and tokens for operators (issue 42). The server does not read
/// tokens yet; these commands make and check what it will.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make keys, mint tokens and verify them (JWKS files, JWTs; docs/auth.md).",
        subcommands: [TokenKeygen.self, TokenMint.self, TokenVerify.self])

    /// A JWKS file's keys, or its path and the reason on stderr and exit status 2.
    static func readKeys(_ path: String, allowPrivateKeys: Bool) throws -> KeySet {
        let bytes = try readOrExit(path, what: "key")
        do { return try KeySet.parse(bytes, allowPrivateKeys: allowPrivateKeys) } catch {
            FileHandle.standardError.write(Data("liftboard token: \(path): \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}

extension SigningAlgorithm: ExpressibleByArgument {}
extension Role: ExpressibleByArgument {}

struct TokenKeygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Write a new key: a JWKS for the signer (with its private part) and one for the server.",
        discussion: "For HS256 both files hold the same secret. The signer's file is written with mode 0600.")

    @Option(help: "HS256, EdDSA or ES256.") var alg: SigningAlgorithm
    @Option(help: "The key's id (the `kid` tokens name).") var kid: String
    @Option(help: "The signer's JWKS file (written, never overwritten).") var signing: String
    @Option(help: "The server's JWKS file (written, never overwritten).") var verifying: String

    func run() throws {
        guard let (s, v) = KeyGenerator.generate(alg, kid: kid) else {
            FileHandle.standardError.write(Data("liftboard token keygen: libcrypto could not make a key\n".utf8))
            throw ExitCode(1)
        }
        try write(#"{"keys":[\#(s)]}"# + "\n", to: signing, mode: 0o600)
        try write(#"{"keys":[\#(v)]}"# + "\n", to: verifying, mode: 0o644)
    }

    private func write(_ text: String, to path: String, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else {
            FileHandle.standardError.write(Data("liftboard token keygen: cannot create \(path): \(String(cString: strerror(errno)))\n".utf8))
            throw ExitCode(2)
        }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count else { throw ExitCode(2) }
    }
}

struct TokenMint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint",
        abstract: "Print a token signed by a key of a signer's JWKS file (an HS256 secret, or a key with `d`).")

    @Option(help: "The signer's JWKS file.") var keys: String
    @Option(help: "The key to sign with (default: the file's only key that can sign).") var kid: String?
    @Option(help: "The user's id (`sub`).") var sub: String
    @Option(help: "The name shown to others (`name`).") var name: String?
    @Option(help: "A board id the token grants; `prefix*` grants every id starting with prefix. Repeatable.") var board: [String] = []
    @Option(help: "view, move, edit or admin.") var role: Role = .move
    @Option(help: "The audience (`aud`).") var aud: String?
    @Option(help: "Seconds until the token expires.") var ttl: Int = 3600

    func validate() throws {
        guard ttl > 0 else { throw ValidationError("--ttl must be positive") }
    }

    func run() throws {
        let set = try TokenCommand.readKeys(keys, allowPrivateKeys: true)
        let signers = set.keys.filter { kid == nil || $0.kid == kid }
        guard let key = signers.count == 1 || kid != nil ? signers.first : nil else {
            let reason = kid.map { "no key \"\($0)\"" } ?? "\(set.keys.count) keys: name one with --kid"
            FileHandle.standardError.write(Data("liftboard token mint: \(keys): \(reason)\n".utf8))
            throw ExitCode(2)
        }
        let now = Date().timeIntervalSince1970.rounded(.down)
        let claims = TokenClaims(subject: sub, name: name, expiresAt: now + Double(ttl), issuedAt: now,
                                 audience: aud.map { [$0] } ?? [], boards: board, role: role)
        do { print(try TokenMinter.mint(claims, key: key)) } catch {
            FileHandle.standardError.write(Data("liftboard token mint: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}

struct TokenVerify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify the token on stdin as the server will, printing the verdict as JSON.",
        discussion: """
            Prints {"ok": true, "claims": {...}} and exits 0, or {"ok": false, "status": 401|403, \
            "error": {"code", "message"}} and exits 1. A key file that cannot be used exits 2. \
            The token is read from stdin (a trailing newline is dropped) so that it never shows \
            in a process list; it is never printed.
            """)

    @Option(help: "The server's JWKS file (public keys; a private key is refused).") var keys: String
    @Option(help: "The board the token must grant.") var board: String?
    @Option(help: "The audience `aud` must name.") var audience: String?
    @Option(help: "Clock leeway in seconds, 0 to 60.") var leeway: Double = TokenVerifier.maxLeewaySeconds
    @Option(help: "The time to verify at, in seconds since the Unix epoch (default: now).") var now: Double?

    func validate() throws {
        guard leeway >= 0, leeway <= TokenVerifier.maxLeewaySeconds else { throw ValidationError("--leeway must be 0 ... 60") }
    }

    func run() throws {
        let verifier = TokenVerifier(keys: try TokenCommand.readKeys(keys, allowPrivateKeys: false),
                                     audience: audience, leewaySeconds: leeway)
        var token = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        while let last = token.last, last == 10 || last == 13 { token.removeLast() }
        let verdict: Result<TokenClaims, TokenError>
        do throws(TokenError) {
            verdict = .success(try verifier.verify(bytes: token, board: board, now: now ?? Date().timeIntervalSince1970))
        } catch { verdict = .failure(error) }
        var w = JSONWriter()
        w.beginObject()
        switch verdict {
        case .success(let claims):
            w.key("ok"); w.bool(true)
            w.key("claims"); w.value(try JSONParser.parse(TokenMinter.encode(claims)))
        case .failure(let error):
            w.key("ok"); w.bool(false)
            w.key("status"); w.int(error.httpStatus)
            w.key("error"); w.beginObject()
            w.key("code"); w.string(error.code); w.key("message"); w.string(error.description)
            w.endObject()
        }
        w.endObject()
        print(String(decoding: w.bytes, as: UTF8.self))
        if case .failure = verdict { throw ExitCode(1) }
    }
}
