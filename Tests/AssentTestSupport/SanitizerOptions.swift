import Foundation

/// The sanitizer settings of this test process (`ASAN_OPTIONS`, `LSAN_OPTIONS`, `TSAN_OPTIONS`, `UBSAN_OPTIONS`), for a
/// child process whose environment a test builds from scratch: under a sanitizer build the child is instrumented too and
/// needs the same settings (its suppressions, `detect_leaks=0`). Empty in an ordinary run.
package enum SanitizerOptions {
    package static var environment: [String: String] {
        ProcessInfo.processInfo.environment.filter { ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key) }
    }
}
