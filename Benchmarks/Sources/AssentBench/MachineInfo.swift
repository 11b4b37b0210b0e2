import Foundation
import Glibc

/// The machine the figures came from: online cores, CPU model, kernel.
struct MachineInfo: Sendable {
    var cores: Int
    var cpuModel: String
    var kernel: String

    static func current() -> MachineInfo {
        MachineInfo(cores: sysconf(Int32(_SC_NPROCESSORS_ONLN)), cpuModel: cpuModel(), kernel: kernel())
    }

    private static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            // x86 says "model name"; some ARM kernels only "Processor" or "Hardware".
            if key == "model name" || key == "Processor" || key == "Hardware" || key == "cpu model" {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    private static func kernel() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "unknown" }
        func field<T>(_ value: inout T) -> String {
            withUnsafeBytes(of: &value) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        return "\(field(&name.sysname)) \(field(&name.release)) \(field(&name.machine))"
    }
}
