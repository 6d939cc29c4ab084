import XCTest
@testable import LiftboardLoad

/// The load client's own WebSocket framing: server frames in (RFC 6455 §5), client frames out.
final class WebSocketFramesTests: XCTestCase {
    /// Feeds `bytes` to a parser in pieces of `chunk` bytes and records what it delivers.
    private func parse(_ bytes: [UInt8], chunk: Int, into parser: inout ServerFrameParser) throws -> [(ServerFrameEvent, [UInt8])] {
        var out: [(ServerFrameEvent, [UInt8])] = []
        var at = 0
        while at < bytes.count {
            let piece = Array(bytes[at..<min(bytes.count, at + chunk)])
            try piece.withUnsafeBytes { try parser.consume($0) { event, payload in out.append((event, Array(payload))) } }
            at += chunk
        }
        return out
    }

    private func parse(_ bytes: [UInt8], chunk: Int) throws -> [(ServerFrameEvent, [UInt8])] {
        var parser = ServerFrameParser()
        return try parse(bytes, chunk: chunk, into: &parser)
    }

    func testAMessageInThreeFragmentsWithAPingBetweenThemArrivesWholeAfterThePing() throws {
        // "Hel" (text, not final), ping "hi", "lo " (continuation), "you" (continuation, final).
        let bytes: [UInt8] = [0x01, 3] + Array("Hel".utf8) + [0x89, 2] + Array("hi".utf8)
            + [0x00, 3] + Array("lo ".utf8) + [0x80, 3] + Array("you".utf8)
        for chunk in [1, 2, 5, bytes.count] {
            let events = try parse(bytes, chunk: chunk)
            XCTAssertEqual(events.map(\.0), [.ping, .text], "chunk \(chunk)")
            XCTAssertEqual(events.map(\.1), [Array("hi".utf8), Array("Hello you".utf8)], "chunk \(chunk)")
        }
    }

    func testSixteenAndSixtyFourBitLengthsAreReadWhateverTheReadsSplitThem() throws {
        let medium = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let large = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 13) }
        // 300 = 0x012C after 126; 70,000 = 0x0000000000011170 after 127.
        let bytes: [UInt8] = [0x81, 126, 0x01, 0x2C] + medium + [0x82, 127, 0, 0, 0, 0, 0, 0x01, 0x11, 0x70] + large
            + [0x81, 125] + [UInt8](repeating: 0x61, count: 125)
        for chunk in [3, 1000, 65_536, bytes.count] {
            let events = try parse(bytes, chunk: chunk)
            XCTAssertEqual(events.map(\.0), [.text, .binary, .text], "chunk \(chunk)")
            XCTAssertEqual(events[0].1, medium)
            XCTAssertEqual(events[1].1, large)
            XCTAssertEqual(events[2].1.count, 125)
        }
    }

    func testAWholeFrameLeavesNothingBehindAndAPartialOneWaitsForTheRest() throws {
        var parser = ServerFrameParser()
        let whole: [UInt8] = [0x81, 2] + Array("ok".utf8)
        XCTAssertEqual(try parse(whole + [0x81, 5, 0x61], chunk: 100, into: &parser).map(\.1), [Array("ok".utf8)])
        XCTAssertEqual(parser.carry, [0x81, 5, 0x61])
        XCTAssertEqual(try parse(Array("bcde".utf8), chunk: 100, into: &parser).map(\.1), [Array("abcde".utf8)])
        XCTAssertEqual(parser.carry, [])
    }

    func testACloseFrameGivesItsCodeAndStopsReading() throws {
        let bytes: [UInt8] = [0x88, 4, 0x03, 0xE9, 0x68, 0x69, 0x81, 1, 0x78]
        let events = try parse(bytes, chunk: bytes.count)
        XCTAssertEqual(events.map(\.0), [.close(1001)])
        XCTAssertEqual(events[0].1, Array("hi".utf8))
        XCTAssertEqual(try parse([0x88, 0], chunk: 2).map(\.0), [.close(nil)])
    }

    func testFramesNoServerMaySendAreRefused() {
        let cases: [([UInt8], ServerFrameParser.Failure)] = [
            ([0x81, 0x81, 1, 2, 3, 4, 0x61], .maskedFrame),
            ([0xC1, 1, 0x61], .reservedBits),
            ([0x83, 0], .unknownOpcode(3)),
            ([0x80, 1, 0x61], .badFragmentation),                       // a continuation of nothing
            ([0x01, 1, 0x61, 0x81, 1, 0x62], .badFragmentation),        // a new message inside one
            ([0x09, 0], .badControlFrame),                              // a fragmented ping
            ([0x89, 126, 0, 126] + [UInt8](repeating: 0, count: 126), .badControlFrame),
        ]
        for (bytes, failure) in cases {
            XCTAssertThrowsError(try parse(bytes, chunk: bytes.count), "\(bytes.prefix(4))") { XCTAssertEqual($0 as? ServerFrameParser.Failure, failure) }
        }
        var small = ServerFrameParser()
        small.maxMessage = 10
        XCTAssertThrowsError(try parse([0x81, 11] + [UInt8](repeating: 0, count: 11), chunk: 13, into: &small)) {
            XCTAssertEqual($0 as? ServerFrameParser.Failure, .tooBig)
        }
    }

    /// Reads a client frame back by the RFC: FIN, opcode, the MASK bit, the length, the key, the payload unmasked.
    private func unmask(_ f: [UInt8]) -> (opcode: UInt8, payload: [UInt8])? {
        guard f.count >= 6, f[0] & 0x80 != 0, f[1] & 0x80 != 0 else { return nil }
        var length = Int(f[1] & 0x7F), at = 2
        if length == 126 { length = Int(f[2]) << 8 | Int(f[3]); at = 4 } else if length == 127 {
            length = f[2..<10].reduce(0) { $0 << 8 | Int($1) }; at = 10
        }
        let key = Array(f[at..<(at + 4)])
        at += 4
        guard f.count == at + length else { return nil }
        return (f[0] & 0x0F, (0..<length).map { f[at + $0] ^ key[$0 % 4] })
    }

    func testClientFramesAreMaskedAndCarryTheirLengthInTheShortestForm() {
        for (n, headerLength) in [(0, 6), (5, 6), (125, 6), (126, 8), (65_535, 8), (65_536, 14), (70_001, 14)] {
            let payload = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            var out: [UInt8] = []
            payload.withUnsafeBytes { ClientFrame.append(opcode: ClientFrame.text, payload: $0, mask: 0xA1B2_C3D4, to: &out) }
            XCTAssertEqual(out.count, headerLength + n, "length \(n)")
            let read = unmask(out)
            XCTAssertEqual(read?.opcode, ClientFrame.text)
            XCTAssertEqual(read?.payload, payload, "length \(n)")
            if n >= 4 { XCTAssertNotEqual(Array(out[headerLength..<(headerLength + 4)]), Array(payload[0..<4])) }
        }
    }

    func testTheUpgradeAcceptKeyIsTheRFCsExampleAndAWrongOneIsRefused() throws {
        // RFC 6455 §1.3: this key gives this accept value.
        XCTAssertEqual(WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let h = WebSocketHandshake(hostHeader: "127.0.0.1:8080", path: "/ws", subprotocol: "liftboard.v1", nonce: Array(0..<16))
        XCTAssertEqual(h.key, "AAECAwQFBgcICQoLDA0ODw==")
        let request = String(decoding: h.request, as: UTF8.self)
        XCTAssertTrue(request.hasPrefix("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"))
        XCTAssertTrue(request.contains("\r\nSec-WebSocket-Protocol: liftboard.v1\r\n") && request.hasSuffix("\r\n\r\n"))
        let good = "HTTP/1.1 101 Switching Protocols\r\nupgrade: WebSocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(h.expectedAccept)\r\nsec-websocket-protocol: liftboard.v1\r\n\r\n"
        XCTAssertNil(try h.check(Array(good.utf8.dropLast(2))))
        XCTAssertEqual(try h.check(Array(good.utf8) + [0x81, 0]), good.utf8.count)
        let wrong = good.replacingOccurrences(of: h.expectedAccept, with: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        XCTAssertThrowsError(try h.check(Array(wrong.utf8))) { XCTAssertEqual($0 as? WebSocketHandshake.Failure, .wrongAccept) }
        let noProtocol = good.replacingOccurrences(of: "sec-websocket-protocol: liftboard.v1\r\n", with: "")
        XCTAssertThrowsError(try h.check(Array(noProtocol.utf8))) { XCTAssertEqual($0 as? WebSocketHandshake.Failure, .wrongProtocol("")) }
        XCTAssertThrowsError(try h.check(Array("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n".utf8))) {
            XCTAssertEqual($0 as? WebSocketHandshake.Failure, .status("HTTP/1.1 403 Forbidden"))
        }
    }

    func testDeadlinesComeOutEarliestFirstAndOnlyOnceDue() {
        var heap = DeadlineHeap()
        var random = SeededRandom(seed: 3)
        let deadlines = (0..<500).map { _ in UInt64(random.int(1, 10_000)) }
        for (k, d) in deadlines.enumerated() { heap.push(d, k) }
        XCTAssertNil(heap.popDue(0))
        var out: [UInt64] = []
        while let (d, token) = heap.popDue(.max) {
            XCTAssertEqual(deadlines[token], d)
            out.append(d)
        }
        XCTAssertEqual(out, deadlines.sorted())
    }
}
