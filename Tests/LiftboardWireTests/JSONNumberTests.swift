import Foundation
import Testing
import LiftboardCore
@testable import LiftboardWire

/// The hot path reads and writes numbers without String and strtod: the bytes and values must be
/// exactly those of the slow path, for every shape a client or the engine produces.
struct JSONNumberTests {
    /// A fixed, varied sample: coordinates, times, scales, negatives, tiny and huge values.
    static let samples: [Double] = {
        var out: [Double] = [0, -0.0, 1, -1, 0.5, 0.0001, -0.0001, 0.00005, 1.05, 0.0873, 0.8, 123.4567, 99999.99995,
                             1e11, 123456789012.5, 1e15, 1e16, 2.5e-7, 1234.56789, 0.1 + 0.2, -7.25]
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let scale = [1.0, 10, 1000, 1e6, 1e9][Int(state >> 61) % 5]
            out.append((Double(state >> 11) / Double(1 << 53) - 0.5) * scale)
            // Halfway between two four-decimal values, or as near as a double gets: the writer
            // rounds these away from zero without `rounded()`, as `rounded()` does.
            let k = Double(state >> 40) * [1.0, 1e3, 1e6][Int(state >> 20) % 3]
            out.append((k + 0.5) / 10_000 * (state & 1 == 0 ? 1 : -1))
        }
        return out
    }()

    @Test func writtenNumbersAreTheShortestTextOfTheValueRoundedToFourDecimals() {
        for x in Self.samples {
            var w = JSONWriter()
            w.number(x)
            let r = (x * 10_000).rounded() / 10_000
            let expected = r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : r.description
            #expect(String(decoding: w.bytes, as: UTF8.self) == expected, "\(x)")
        }
    }

    /// The largest finite values (whose rounding to four decimals overflows) are written as
    /// JSON numbers that read back as themselves, through the writer and the frame cursor alike.
    @Test func theLargestFiniteValuesAreWrittenAsNumbersThatReadBack() throws {
        for x in [1.7e304, 1e305, -1e306, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude] {
            var w = JSONWriter()
            w.number(x)
            let text = String(decoding: w.bytes, as: UTF8.self)
            let back = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [Double]
            #expect(back == [x], "\(x) written as \(text)")
            let frame = Wire.encode(.frame(FrameMessage(seq: 1, ms: x)))
            #expect((try? JSONSerialization.jsonObject(with: Data(frame))) != nil, "\(String(decoding: frame, as: UTF8.self))")
        }
    }

    /// Integers (and integral doubles) are written two digits at a time: every length, both signs,
    /// the extremes, each power of ten and its neighbours.
    @Test func writtenIntegersAreTheirDecimalText() {
        var values: [Int] = [0, 1, -1, 9, 10, 11, 99, 100, 101, Int.max, Int.min, Int.min + 1]
        var p = 1
        for _ in 0..<18 { p *= 10; values += [p - 1, p, p + 1, -(p - 1), -p, -(p + 1)] }
        var state: UInt64 = 7
        for _ in 0..<5_000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            values.append(Int(bitPattern: UInt(state)) >> Int(state % 63))
        }
        for v in values {
            var w = JSONWriter()
            w.int(v)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(v))
            if abs(Double(v)) < 1e15 {
                var d = JSONWriter()
                d.number(Double(v))
                #expect(String(decoding: d.bytes, as: UTF8.self) == String(v))
            }
        }
    }

    @Test func parsedNumbersAreExactlyWhatStrtodReads() throws {
        var texts = Self.samples.map { "\($0)" }
        texts += ["123.456", "-0", "0.1", "599.99", "1e3", "12345678901234567", "123456789012345.6", "0.000000000000001",
                  "9007199254740993", "-2.5E-3", "800.125", "100"]
        for t in texts {
            let v = try JSONParser.parse(Array("[\(t)]".utf8))
            guard case .array(let a) = v, case .number(let d)? = a.first else { Issue.record("\(t) did not parse"); continue }
            let expected = strtod(t, nil)
            #expect(d.bitPattern == expected.bitPattern, "\(t)")
        }
    }
}

/// Strings are copied whole when they need no escaping; the others still escape.
struct JSONWriterStringTests {
    @Test func plainSmallLargeAndEscapedStringsAreWrittenAsJSON() throws {
        let cases: [String] = ["", "r1", "Row 12", String(repeating: "long label ", count: 20), "a \"quoted\" label",
                               "back\\slash", "line\nbreak\ttab\u{1}", "café ☕︎", "\"" + String(repeating: "x", count: 40)]
        for s in cases {
            var w = JSONWriter()
            w.beginArray(); w.string(s); w.string(s); w.endArray()
            let back = try JSONParser.parse(w.bytes)
            #expect(back == .array([.string(s), .string(s)]), "\(s)")
        }
        var w = JSONWriter()
        w.string("a\"b\n")
        #expect(String(decoding: w.bytes, as: UTF8.self) == #""a\"b\n""#)
    }
}
