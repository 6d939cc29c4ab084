import Testing
import LiftboardAuth

@Suite struct Base64URLTests {
    @Test func everyLengthRoundTripsAndMatchesTheRFC4648Vectors() {
        var bytes: [UInt8] = []
        for n in 0..<40 {
            #expect(Base64URL.decode(Base64URL.encode(bytes).utf8) == bytes, "length \(n)")
            bytes.append(UInt8(truncatingIfNeeded: n &* 97 &+ 251))
        }
        // RFC 4648 §10, unpadded.
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, coded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == coded)
            #expect(Base64URL.decode(coded.utf8) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test func anythingButTheOneCanonicalEncodingIsRefused() {
        for text in ["Zg==", "Zm8=", "Z", "Zm9vY", "+/8", "-_8/", "Zm 9v", "Zm9v\n", "Zh", "Zm9", "Zm+"] {
            #expect(Base64URL.decode(text.utf8) == nil, "\(text)")
        }
        #expect(Base64URL.decode("Zm8".utf8) != nil)
    }
}
