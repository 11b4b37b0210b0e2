#if FUZZING
/// The fuzzing build (`make fuzz`: `-DFUZZING -sanitize=fuzzer,address`): `AssentFuzz TARGET [libFuzzer flags and
/// corpus directories]` runs libFuzzer on one target.
///
/// SwiftPM links an executable with `main` pointing at `AssentFuzz_main`, so that is the entry, and it hands the
/// arguments (without the target's name) to libFuzzer's driver. libFuzzer's own `main`, linked in by
/// `-sanitize=fuzzer`, is never called but needs `LLVMFuzzerTestOneInput`, which runs the same target.

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target this process fuzzes, chosen once before libFuzzer starts.
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selected else { return 0 }
    target.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("AssentFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    guard argc >= 2, let argv, let name = argv[1].map({ String(cString: $0) }), let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        print("usage: AssentFuzz TARGET [libFuzzer flags] [CORPUS_DIR ...]; targets: \(names)")
        return 2
    }
    selected = target
    // libFuzzer reads argv[0] and its flags: drop the target's name.
    var arguments: [UnsafeMutablePointer<CChar>?] = [argv[0]] + (2..<Int(argc)).map { argv[$0] } + [nil]
    var count = argc - 1
    return arguments.withUnsafeMutableBufferPointer { buffer in
        var pointer = buffer.baseAddress
        return LLVMFuzzerRunDriver(&count, &pointer, fuzzOneInput)
    }
}
#else
import Foundation

/// The ordinary build: `AssentFuzz TARGET PATH...` feeds every file (a directory: every file in it) through the
/// target once, as `make test` does with the seed corpus, to reproduce a finding without the fuzzing build.
@main
struct AssentFuzz {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget.named(name), arguments.count >= 2 else {
            let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
            print("usage: AssentFuzz TARGET FILE_OR_DIRECTORY...; targets: \(names)")
            exit(2)
        }
        var count = 0
        do {
            for path in arguments.dropFirst() {
                for file in try FuzzCorpus.files(at: URL(fileURLWithPath: path)) {
                    target.run(Array(try Data(contentsOf: file)))
                    count += 1
                }
            }
        } catch {
            print("AssentFuzz: \(error.localizedDescription)")
            exit(1)
        }
        print("\(target.name): \(count) inputs, no crash")
    }
}
#endif
