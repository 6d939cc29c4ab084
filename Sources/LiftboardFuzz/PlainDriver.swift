#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LiftboardCore

/// A seeded mutation fuzzer for when libFuzzer is not linked: corpus files and their
/// mutations (byte flips, insertions, deletions, splices, interesting bytes), for a given time.
/// The input about to run is kept in a C buffer that a trap handler writes out, so a crash
/// leaves its input behind as `crash-plain-<seed>`.
struct PlainDriver {
    var seconds = 10.0
    var seed: UInt64 = 1
    var corpus: [[UInt8]] = []

    init(arguments: [String]) {
        var i = 0
        while i < arguments.count {
            switch arguments[i] {
            case "--seconds": seconds = Double(arguments[i + 1]) ?? seconds; i += 2
            case "--seed": seed = UInt64(arguments[i + 1]) ?? seed; i += 2
            default:
                let dir = arguments[i]
                for name in (try? FileManager.default.contentsOfDirectory(atPath: dir))?.sorted() ?? [] {
                    if let d = FileManager.default.contents(atPath: dir + "/" + name) { corpus.append([UInt8](d)) }
                }
                i += 1
            }
        }
        if corpus.isEmpty { corpus = [[]] }
    }

    func run(_ target: (UnsafePointer<UInt8>?, Int) -> Int32) {
        var rng = SplitMix64(seed: seed)
        crashName = strdup("crash-plain-\(seed)")
        for sig in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS] { signal(sig, writeCrashInput) }
        let end = Date().addingTimeInterval(seconds)
        var runs = 0
        for input in corpus { execute(input, target); runs += 1 }
        while Date() < end {
            for _ in 0..<256 {
                var input = corpus[Int(rng.next() % UInt64(corpus.count))]
                for _ in 0..<(1 + rng.next() % 8) { mutate(&input, &rng) }
                execute(input, target)
                runs += 1
            }
        }
        FileHandle.standardError.write(Data("liftboard-fuzz: plain driver, \(runs) runs in \(seconds) s, seed \(seed)\n".utf8))
    }

    private func execute(_ input: [UInt8], _ target: (UnsafePointer<UInt8>?, Int) -> Int32) {
        currentInput.removeAll(keepingCapacity: true)
        currentInput.append(contentsOf: input)
        currentLength = input.count
        _ = input.withUnsafeBufferPointer { target($0.baseAddress, $0.count) }
    }

    private func mutate(_ b: inout [UInt8], _ rng: inout SplitMix64) {
        let interesting: [UInt8] = Array("{}[]\",:0-.e9 \n".utf8) + [0, 0xFF, 0x7F, 0x80]
        switch rng.next() % 6 {
        case 0 where !b.isEmpty: b[Int(rng.next() % UInt64(b.count))] ^= UInt8(1 << (rng.next() % 8))
        case 1: b.insert(interesting[Int(rng.next() % UInt64(interesting.count))], at: Int(rng.next() % UInt64(b.count + 1)))
        case 2 where !b.isEmpty: b.remove(at: Int(rng.next() % UInt64(b.count)))
        case 3 where !b.isEmpty: b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next())
        case 4:
            let other = corpus[Int(rng.next() % UInt64(corpus.count))]
            if !other.isEmpty {
                let from = Int(rng.next() % UInt64(other.count)), n = min(other.count - from, Int(rng.next() % 64))
                b.insert(contentsOf: other[from..<(from + n)], at: Int(rng.next() % UInt64(b.count + 1)))
            }
        default:
            if b.count > 4096 { b.removeLast(b.count - 4096) }
        }
    }
}

nonisolated(unsafe) var currentInput = [UInt8](repeating: 0, count: 0)
nonisolated(unsafe) var currentLength = 0
nonisolated(unsafe) var crashName: UnsafeMutablePointer<CChar>? = nil

/// Async-signal-safe: open, write, _exit.
func writeCrashInput(_ sig: Int32) {
    let fd = open(crashName!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if fd >= 0 {
        currentInput.withUnsafeBufferPointer { _ = write(fd, $0.baseAddress, currentLength) }
        close(fd)
    }
    _exit(77)
}

