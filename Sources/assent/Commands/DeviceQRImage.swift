import AssentServerCore
import Foundation
import AssentSync

/// Reads the text of a QR code in an image file with ZBar's `zbarimg -q --raw FILE` (Debian package `zbar-tools`).
enum DeviceQRImage {
    /// The text of the QR code in the image at `path`. With several codes in the image, the first that reads as an
    /// Assent payload (else simply the first).
    static func decode(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw CLIError.failure("cannot read the image \(path): no such readable file", errorCode: "image_unreadable")
        }
        guard let zbarimg = executable("zbarimg", path: environment["PATH"]) else {
            throw CLIError.failure(
                "reading QR images needs zbarimg, which is not installed (on Debian: apt-get install zbar-tools); "
                    + "or pass the text with --payload", errorCode: "zbarimg_not_found")
        }
        let (status, stdout, stderr) = try run(zbarimg, ["-q", "--raw", path])
        switch status {
        case 0:
            let lines = stdout.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
            guard let first = lines.first else {
                throw CLIError.failure("no QR code found in \(path)", errorCode: "no_qr_code")
            }
            return lines.first { $0.hasPrefix("assent://") } ?? first
        case 4:
            // zbarimg's "no symbols found".
            throw CLIError.failure("no QR code found in \(path)", errorCode: "no_qr_code")
        default:
            // zbarimg's own lines start with ERROR:; anything else is noise from its libraries (D-Bus, ...).
            let lines = stderr.split(whereSeparator: \.isNewline).map(String.init)
            let reason = lines.filter { $0.hasPrefix("ERROR:") }.joined(separator: "; ")
            throw CLIError.failure(
                "zbarimg could not read \(path) (exit status \(status))" + (reason.isEmpty ? "" : ": \(reason)"),
                errorCode: "image_unreadable")
        }
    }

    /// The first executable `name` on `path` (a `PATH` value).
    static func executable(_ name: String, path: String?) -> String? {
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") where !directory.isEmpty {
            let candidate = (String(directory) as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CLIError.failure("cannot run \(executable): \(ErrorText.describe(error))", errorCode: "zbarimg_not_found")
        }
        // Drain stderr on another thread so neither pipe can fill up and stall zbarimg.
        let errors = AssentLock(Data())
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = data }
            drained.signal()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        let err = errors.withLock { $0 }
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
