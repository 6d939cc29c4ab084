// liftboard-fuzz: the fuzz targets of Liftboard, one binary.
//
//   liftboard-fuzz wire|session|token|tree [libFuzzer flags and corpus dirs]   (built with LIFTBOARD_LIBFUZZER)
//   liftboard-fuzz wire|session|token|tree --seconds N [--seed S] [CORPUS_DIR...]  (the plain driver)
//
// scripts/fuzz builds it with `-sanitize=fuzzer,address -DLIFTBOARD_LIBFUZZER`, which links
// libFuzzer and hands it the target; a plain `swift build` gets a seeded mutation driver of its
// own (no coverage guidance, no sanitizer) so the targets build and run everywhere.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

let targets: [String: (UnsafeRawBufferPointer) -> Void] = ["wire": fuzzWireDecode, "session": fuzzSession, "token": fuzzToken, "tree": fuzzTree]
nonisolated(unsafe) var selectedTarget: (UnsafeRawBufferPointer) -> Void = fuzzWireDecode

func runSelected(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedTarget(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

var args = CommandLine.arguments
// libFuzzer re-runs the binary with its own flags only (-minimize_crash, -fork): the target
// then comes from LIFTBOARD_FUZZ_TARGET, which the first run sets.
var targetName = ProcessInfo.processInfo.environment["LIFTBOARD_FUZZ_TARGET"] ?? ""
if args.count >= 2, targets[args[1]] != nil { targetName = args.remove(at: 1) }
guard let target = targets[targetName] else {
    FileHandle.standardError.write(Data("usage: liftboard-fuzz wire|session|token|tree [--seconds N] [--seed S] [CORPUS_DIR...] (or libFuzzer flags)\n".utf8))
    exit(2)
}
setenv("LIFTBOARD_FUZZ_TARGET", targetName, 1)
selectedTarget = target
traceEvents = ProcessInfo.processInfo.environment["LIFTBOARD_FUZZ_TRACE"] == "1"
atexit(printSummary)

#if LIFTBOARD_LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

var cArgs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
var argc = Int32(args.count)
exit(cArgs.withUnsafeMutableBufferPointer { buf in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buf.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in runSelected(data, size) }
})
#else
PlainDriver(arguments: Array(args.dropFirst())).run(runSelected)
#endif
