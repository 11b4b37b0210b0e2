import AssentCrypto
import Foundation

/// The server's 32-byte master key, from which tenant token keys are derived.
public enum MasterKey {
    /// The key ``ServerConfiguration`` names: `ASSENT_MASTER_KEY` when set, else the key file (created when missing).
    /// A PostgreSQL database is shared by several instances, so its key is never made up beside a database file.
    public static func load(_ configuration: ServerConfiguration) throws -> [UInt8] {
        if configuration.databaseLocation.isShared, configuration.masterKey == nil, configuration.masterKeyFile == nil {
            throw ServerConfiguration.Invalid(description: ServerConfiguration.sharedMasterKeyAdvice)
        }
        return try load(base64: configuration.masterKey, file: configuration.masterKeyPath)
    }

    /// Reads the key from `base64` when given, else from `file`, creating the file (owner read/write only) with a
    /// fresh random key when it does not exist.
    public static func load(base64: String?, file: String) throws -> [UInt8] {
        if let base64 {
            guard let key = Base64.decode(base64), key.count == 32 else {
                throw ServerConfiguration.Invalid(description: "ASSENT_MASTER_KEY must be base64 of exactly 32 bytes")
            }
            return key
        }
        if let data = FileManager.default.contents(atPath: file) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let key = Base64.decode(text), key.count == 32 else {
                throw ServerConfiguration.Invalid(description: "\(file) must hold base64 of exactly 32 bytes")
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
            throw ServerConfiguration.Invalid(description: "cannot create master key file \(file): \(String(cString: strerror(errno)))")
        }
        let line = Array((Base64.encode(key) + "\n").utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == line.count, synced == 0 else {
            unlink(file)
            throw ServerConfiguration.Invalid(description: "cannot write master key file \(file)")
        }
        return key
    }
}
