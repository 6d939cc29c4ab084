import Testing
@testable import LiftboardServer

/// `WebSocketFrame` alone: the headers of the frames a batch writes.
@Suite struct WebSocketFrameTests {
    @Test func headersFollowTheRFCsThreeLengthForms() {
        for (length, binary, expected) in [
            (0, false, [0x81, 0]), (125, false, [0x81, 125]), (126, true, [0x82, 126, 0, 126]),
            (0xFFFF, false, [0x81, 126, 0xFF, 0xFF]), (0x10000, false, [0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]),
            (0x0102_0304, true, [0x82, 127, 0, 0, 0, 0, 1, 2, 3, 4]),
        ] as [(Int, Bool, [UInt8])] {
            var buffer = [UInt8](repeating: 0xEE, count: 12)
            #expect(WebSocketFrame.headerSize(payload: length) == expected.count)
            WebSocketFrame.writeHeader(&buffer, at: 1, payload: length, binary: binary)
            #expect(Array(buffer[1..<1 + expected.count]) == expected, "length \(length)")
            #expect(buffer[0] == 0xEE && buffer[1 + expected.count] == 0xEE, "nothing outside the header is touched")
        }
    }
}
