import AssentSync
import Foundation

/// The master key ring a running server (or one CLI command) uses, shared by everything that derives keys from it.
///
/// A ring read from a file can be read again while serving (``reload()``: on SIGHUP, on a timer, and when a token,
/// sealed value or audit MAC names a version this ring does not have yet), so instances sharing a PostgreSQL
/// database pick up a version another instance's `assent admin master-key rotate` added without restarting. A reload
/// that fails (a damaged file) keeps the ring in use; a reload never drops a version the ring in use has.
package final class MasterKeys: Sendable {
    private let ring: AssentLock<State>
    private let file: String?
    private let changed: @Sendable (MasterKeyRing) -> Void

    private struct State {
        var ring: MasterKeyRing
        /// The file's identity when it was last read: a version not in the ring is looked for again only when the
        /// file has changed since, so a flood of forged key ids costs a `stat` each, never a read.
        var signature: [Int64]
    }

    /// Keys that never change (`ASSENT_MASTER_KEY`, a CLI command, a test).
    package convenience init(_ ring: MasterKeyRing) {
        self.init(ring, file: nil)
    }

    /// Keys first read as `ring` from `file` (nil: never reloaded); `changed` is told each ring a reload puts in use,
    /// whichever reason read the file.
    package init(_ ring: MasterKeyRing, file: String?, changed: @escaping @Sendable (MasterKeyRing) -> Void = { _ in }) {
        self.ring = AssentLock(State(ring: ring, signature: file.map(Self.signature) ?? []))
        self.file = file
        self.changed = changed
    }

    /// Device, inode, size and modification time of `file` (empty when it cannot be read).
    private static func signature(_ file: String) -> [Int64] {
        var status = stat()
        guard stat(file, &status) == 0 else { return [] }
        return [Int64(status.st_dev), Int64(status.st_ino), Int64(status.st_size), Int64(status.st_mtim.tv_sec),
                Int64(status.st_mtim.tv_nsec)]
    }

    /// The ring in use now.
    package var current: MasterKeyRing { ring.withLock { $0.ring } }

    /// Reads the file again and uses what it holds when it is a valid ring that still has every version the ring in
    /// use has. Returns whether the ring changed; throws when the file cannot be read or is not such a ring.
    @discardableResult
    package func reload() throws -> Bool {
        guard let file else { return false }
        let signature = Self.signature(file)
        let loaded = try MasterKey.load(base64: nil, file: file)
        let swapped = try ring.withLock { state in
            state.signature = signature
            guard loaded != state.ring else { return false }
            for version in state.ring.versions where !loaded.contains(version.number) {
                throw MasterKeyRingError(
                    .malformed, "\(file) lacks version \(version.number), which this server uses: it was not reloaded")
            }
            state.ring = loaded
            return true
        }
        if swapped { changed(loaded) }
        return swapped
    }

    /// The ring, read again first when it lacks `version` (another instance may have rotated) and the file changed
    /// since it was last read.
    package func ring(having version: Int) -> MasterKeyRing {
        let (ring, signature) = self.ring.withLock { ($0.ring, $0.signature) }
        guard !ring.contains(version), let file, Self.signature(file) != signature else { return ring }
        _ = try? reload()
        return current
    }
}
