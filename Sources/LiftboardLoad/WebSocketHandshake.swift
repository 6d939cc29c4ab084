import Foundation

/// The client's side of the HTTP/1.1 upgrade (RFC 6455 §4.1): the request it sends, and the
/// checks on the server's answer (101, `Upgrade`, `Connection`, the accept key, the protocol).
struct WebSocketHandshake {
    let key: String
    let request: [UInt8]
    let expectedAccept: String
    let subprotocol: String

    /// `hostHeader` is what `Host` says (`127.0.0.1:8080`); `nonce` is the key's 16 bytes.
    init(hostHeader: String, path: String, subprotocol: String, nonce: [UInt8]) {
        key = Data(nonce).base64EncodedString()
        self.subprotocol = subprotocol
        expectedAccept = Self.accept(forKey: key)
        request = Array(("GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: \(subprotocol)\r\n\r\n").utf8)
    }

    /// base64(SHA-1(key + the RFC's GUID)).
    static func accept(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    enum Failure: Error, Equatable, CustomStringConvertible {
        /// Not a 101: the status line (a refusal says why in its body).
        case status(String)
        case missingHeader(String)
        case wrongAccept
        case wrongProtocol(String)
        case headerTooLong
        var description: String {
            switch self {
            case .status(let line): "the server answered the upgrade with \(line)"
            case .missingHeader(let h): "the server's 101 lacks \(h)"
            case .wrongAccept: "the server's Sec-WebSocket-Accept does not match the key"
            case .wrongProtocol(let p): "the server chose the subprotocol \(p.isEmpty ? "(none)" : p)"
            case .headerTooLong: "the server's answer to the upgrade has no end of headers in 16 KiB"
            }
        }
    }

    /// The length of the response head (through the blank line) once `bytes` hold all of it,
    /// `nil` while more is needed; throws when the answer is not the 101 this key asked for.
    func check(_ bytes: [UInt8]) throws -> Int? {
        guard let end = Self.endOfHead(bytes) else {
            if bytes.count > 16_384 { throw Failure.headerTooLong }
            return nil
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let status = lines.isEmpty ? "" : lines.removeFirst()
        let parts = status.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1] == "101" else { throw Failure.status(status) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let upgrade = headers["upgrade"] else { throw Failure.missingHeader("Upgrade") }
        guard upgrade.lowercased() == "websocket" else { throw Failure.missingHeader("Upgrade: websocket") }
        guard let connection = headers["connection"],
              connection.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" })
        else { throw Failure.missingHeader("Connection: Upgrade") }
        guard let accept = headers["sec-websocket-accept"] else { throw Failure.missingHeader("Sec-WebSocket-Accept") }
        guard accept == expectedAccept else { throw Failure.wrongAccept }
        let chosen = headers["sec-websocket-protocol"] ?? ""
        guard chosen == subprotocol else { throw Failure.wrongProtocol(chosen) }
        return end + 4
    }

    /// Where "\r\n\r\n" starts.
    static func endOfHead(_ b: [UInt8]) -> Int? {
        guard b.count >= 4 else { return nil }
        for i in 0...(b.count - 4) where b[i] == 13 && b[i + 1] == 10 && b[i + 2] == 13 && b[i + 3] == 10 { return i }
        return nil
    }
}

/// SHA-1 (FIPS 180-4), for the handshake's accept key only: one digest per connection.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var m = message
        m.append(0x80)
        while m.count % 64 != 56 { m.append(0) }
        let bits = UInt64(message.count) * 8
        for k in (0..<8).reversed() { m.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k)))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            for t in 0..<16 {
                w[t] = UInt32(m[chunk + 4 * t]) << 24 | UInt32(m[chunk + 4 * t + 1]) << 16 | UInt32(m[chunk + 4 * t + 2]) << 8 | UInt32(m[chunk + 4 * t + 3])
            }
            for t in 16..<80 { w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
            var (a, b, c, d, e) = h
            for t in 0..<80 {
                let f: UInt32, k: UInt32
                switch t {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[t]
                e = d; d = c; c = rotl(b, 30); b = a; a = temp
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
        }
        var out: [UInt8] = []
        for v in [h.0, h.1, h.2, h.3, h.4] { for s in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: v >> UInt32(s))) } }
        return out
    }

    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { x << n | x >> (32 - n) }
}
