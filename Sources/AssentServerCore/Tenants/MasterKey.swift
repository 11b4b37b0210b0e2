import AssentCrypto
import Foundation

/// Where the server's master keys come from: `ASSENT_MASTER_KEY` (one key), or a file holding one key or a key ring
/// (``MasterKeyRing``), created with one fresh key when missing.
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
    /// The file may hold a key ring (``MasterKeyRing``); `ASSENT_MASTER_KEY` is always one key (version 1).
    package static func load(base64: String?, file: String, warn: (String) -> Void = { _ in }) throws -> MasterKeyRing {
        if let base64 {
            guard let key = Base64.decode(base64), key.count == 32 else {
                throw Invalid(description: "ASSENT_MASTER_KEY must be base64 of exactly 32 bytes")
            }
            return MasterKeyRing(single: key)
        }
        if let data = try readChecked(file, warn: warn) {
            do {
                return try MasterKeyRing.parse(String(decoding: data, as: UTF8.self), source: file)
            } catch let error as MasterKeyRingError {
                throw Invalid(description: error.reason)
            }
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
        return MasterKeyRing(single: key)
    }

    /// Replaces `file` with `ring` atomically: the text goes to a new owner-only file beside it, is synced, and is
    /// renamed over `file`, so a reader (another `assentd` reloading) sees the old ring or the new one, never half.
    package static func save(_ ring: MasterKeyRing, to file: String) throws {
        let temporary = file + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, OwnerOnlyFiles.fileMode)
        guard descriptor >= 0 else {
            throw Invalid(description: "cannot write master key ring \(temporary): \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, OwnerOnlyFiles.fileMode)
        let bytes = Array(ring.text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, file) == 0 else {
            unlink(temporary)
            throw Invalid(description: "cannot write master key ring \(file): \(String(cString: strerror(errno)))")
        }
        let directory = (file as NSString).deletingLastPathComponent
        let folder = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
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
