import Foundation

/// Files and directories that hold secrets or the database: created readable and writable by their owner only,
/// whatever the process's umask (`assentd` also sets a umask of 077 at start; the CLI and the tests do not).
package enum OwnerOnlyFiles {
    /// Mode of a directory Assent creates: `rwx------`.
    package static let directoryMode: UInt32 = 0o700
    /// Mode of a file Assent creates: `rw-------`.
    package static let fileMode: UInt32 = 0o600

    /// Creates `path` and any missing parent as 0700; directories that already exist keep their mode.
    package static func createDirectory(_ path: String) throws {
        var missing: [String] = []
        var current = path
        while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() {
            if mkdir(directory, directoryMode) != 0, errno != EEXIST {
                throw CocoaError(.fileWriteUnknown, userInfo: [
                    NSFilePathErrorKey: directory, NSLocalizedDescriptionKey: String(cString: strerror(errno)),
                ])
            }
            chmod(directory, directoryMode)  // mkdir applied the umask
        }
    }

    /// Creates the empty file `path` as 0600 when it does not exist (an existing file is left as it is), so a
    /// library that creates the file itself with its own default mode (SQLite: 0644) finds it made already.
    package static func createFileIfMissing(_ path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if descriptor < 0 {
            if errno == EEXIST { return }
            throw CocoaError(.fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(errno)),
            ])
        }
        fchmod(descriptor, fileMode)  // open applied the umask
        close(descriptor)
    }
}
