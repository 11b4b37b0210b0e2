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
    /// fresh random key when it does not exist. A key file other users can read is refused (it would hand every
    /// tenant's secrets to them); one the group can read is accepted (secret mounts are often 0640) and reported
    /// through `warn`.
    package static func load(base64: String?, file: String, warn: (String) -> Void = { _ in }) throws -> [UInt8] {
        if let base64 {
            guard let key = Base64.decode(base64), key.count == 32 else {
                throw Invalid(description: "ASSENT_MASTER_KEY must be base64 of exactly 32 bytes")
            }
            return key
        }
        if let data = try readChecked(file, warn: warn) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let key = Base64.decode(text), key.count == 32 else {
                throw Invalid(description: "\(file) must hold base64 of exactly 32 bytes")
            }
            return key
        }
        let key = SecureRandom.bytes(32)
        let directory = (file as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try OwnerOnlyFiles.createDirectory(directory)
        }
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, OwnerOnlyFiles.fileMode)
        guard descriptor >= 0 else {
            throw Invalid(description: "cannot create master key file \(file): \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, OwnerOnlyFiles.fileMode)  // open applied the umask, which could only have removed bits
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

    /// The contents of `file`, nil when it does not exist. Its mode is checked on the open descriptor (what is read
    /// is what was checked): readable by others is refused, readable by the group is reported through `warn`.
    private static func readChecked(_ file: String, warn: (String) -> Void) throws -> Data? {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw Invalid(description: "cannot read master key file \(file): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Invalid(description: "cannot read master key file \(file): \(String(cString: strerror(errno)))")
        }
        let mode = status.st_mode & 0o777
        let octal = String(mode, radix: 8)
        if mode & S_IROTH != 0 {
            throw Invalid(description: """
                master key file \(file) is readable by every user (mode \(octal)): anyone on this machine could take \
                every tenant's secrets. Fix it with: chmod 600 \(file) (and rotate the key if others may have read it)
                """)
        }
        if mode & S_IRGRP != 0 {
            warn("master key file \(file) is readable by its group (mode \(octal)); chmod 600 unless the group is meant to read it")
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw Invalid(description: "cannot read master key file \(file): \(error)")
        }
    }
}
