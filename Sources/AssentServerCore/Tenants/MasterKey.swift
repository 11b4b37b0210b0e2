import AssentCrypto
import Foundation

/// The server's 32-byte master key, from which tenant token keys are derived.
package enum MasterKey {
    /// A master key that cannot be read or created; the description says which and how to fix it.
    package struct Invalid: Error, CustomStringConvertible {
        /// What is wrong and how to fix it.
        package let description: String

        /// A problem described by `description`.
        package init(description: String) { self.description = description }
    }

    /// Reads the key from `base64` when given, else from `file`, creating the file (owner read/write only) with a
    /// fresh random key when it does not exist.
    package static func load(base64: String?, file: String) throws -> [UInt8] {
        if let base64 {
            guard let key = Base64.decode(base64), key.count == 32 else {
                throw Invalid(description: "ASSENT_MASTER_KEY must be base64 of exactly 32 bytes")
            }
            return key
        }
        if let data = FileManager.default.contents(atPath: file) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let key = Base64.decode(text), key.count == 32 else {
                throw Invalid(description: "\(file) must hold base64 of exactly 32 bytes")
            }
            return key
        }
        let key = SecureRandom.bytes(32)
        let directory = (file as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw Invalid(description: "cannot create master key file \(file): \(String(cString: strerror(errno)))")
        }
        let line = Array((Base64.encode(key) + "\n").utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == line.count, synced == 0 else {
            unlink(file)
            throw Invalid(description: "cannot write master key file \(file)")
        }
        return key
    }
}
