import Foundation

/// Owner-only files written atomically: the one place the SDK touches the file system (``FileKeyStore``, and the
/// CLI's device home).
///
/// Directories (and any missing parents) are created `0700` and files `0600`; an existing directory or file that another user owns or that
/// group or others may access is refused rather than silently used. A write goes to a temporary file in the same
/// directory, is flushed with `fsync`, renamed over the target, and the directory is flushed, so a crash leaves
/// either the old content or the new, never a torn file.
package enum SecureFile {
    /// Ensures `path` is a directory only its owner (this user) can use. Creates it (parents included) when missing
    /// and `create` is true. Returns whether the directory exists afterwards.
    @discardableResult
    package static func prepareDirectory(_ path: String, create: Bool) throws -> Bool {
        var info = stat()
        if stat(path, &info) != 0 {
            let error = errno
            guard error == ENOENT else { throw failure("cannot inspect \(path)", error) }
            guard create else { return false }
            try makeDirectories(path)
            guard stat(path, &info) == 0 else { throw failure("cannot inspect \(path)", errno) }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw KeyStoreError(.ioFailure, "\(path) is not a directory")
        }
        try checkOwnerOnly(info, path: path, kind: "directory")
        return true
    }

    /// Creates `path` and any missing parents, each `0700` (only what is missing is created).
    private static func makeDirectories(_ path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, parent != "/" {
            var info = stat()
            if stat(parent, &info) != 0 {
                guard errno == ENOENT else { throw failure("cannot inspect \(parent)", errno) }
                try makeDirectories(parent)
            }
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw failure("cannot create \(path)", errno) }
    }

    /// The contents of the file at `path`, or nil when there is none. Refuses symbolic links, anything but a regular
    /// file, and files other users could read.
    package static func read(_ path: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 {
            let error = errno
            if error == ENOENT { return nil }
            throw failure("cannot open \(path)", error)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("cannot inspect \(path)", errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw KeyStoreError(.ioFailure, "\(path) is not a regular file") }
        try checkOwnerOnly(info, path: path, kind: "file")
        guard info.st_size <= 1 << 20 else { throw KeyStoreError(.corrupted, "\(path) is too large") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read \(path)", errno)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Writes `bytes` to `path` (mode 0600) atomically. With `replace` false an existing file is left alone and the
    /// answer is false; otherwise the answer is true.
    @discardableResult
    package static func write(_ bytes: [UInt8], to path: String, replace: Bool = true) throws -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let suffix = (0..<8).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp-\(suffix)")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)", errno) }
        var done = false
        defer { if !done { unlink(temporary) } }
        do {
            defer { close(descriptor) }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("cannot write \(temporary)", errno)
                }
                offset += written
            }
            guard fsync(descriptor) == 0 else { throw failure("cannot flush \(temporary)", errno) }
        }
        if replace {
            guard rename(temporary, path) == 0 else { throw failure("cannot rename into \(path)", errno) }
        } else {
            // link(2) fails with EEXIST instead of replacing: the first writer wins a race.
            if link(temporary, path) != 0 {
                let error = errno
                guard error == EEXIST else { throw failure("cannot link \(path)", error) }
                return false
            }
            unlink(temporary)
        }
        done = true
        syncDirectory(directory)
        return true
    }

    /// Removes the file at `path`; returns whether there was one.
    @discardableResult
    package static func remove(_ path: String) throws -> Bool {
        if unlink(path) != 0 {
            let error = errno
            if error == ENOENT { return false }
            throw failure("cannot remove \(path)", error)
        }
        syncDirectory((path as NSString).deletingLastPathComponent)
        return true
    }

    /// Flushes a directory so a rename or unlink in it survives a crash.
    private static func syncDirectory(_ path: String) {
        let descriptor = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func checkOwnerOnly(_ info: stat, path: String, kind: String) throws {
        guard info.st_uid == geteuid() else {
            throw KeyStoreError(.insecurePermissions, "the \(kind) \(path) belongs to another user")
        }
        guard info.st_mode & 0o077 == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw KeyStoreError(
                .insecurePermissions,
                "the \(kind) \(path) is accessible to other users (mode \(mode)); run chmod \(kind == "file" ? "600" : "700") \(path)")
        }
    }

    private static func failure(_ what: String, _ error: Int32) -> KeyStoreError {
        KeyStoreError(.ioFailure, "\(what): \(String(cString: strerror(error)))")
    }
}
