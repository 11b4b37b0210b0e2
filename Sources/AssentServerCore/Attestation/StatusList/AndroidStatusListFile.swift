import AssentAttestation
import Foundation

/// The status list read from a file (`--android-attestation-status-file`), for a server that may not reach Google: an
/// operator copies Google's list there (a cron job, a configuration-management run) and the server reads it on the
/// same schedule as a URL.
package struct AndroidStatusListFile: AndroidStatusListSource {
    /// The file's path.
    package let path: String

    /// The file at `path`.
    package init(path: String) { self.path = path }

    package var location: String { path }

    package func read() async throws -> [UInt8] {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? Int else {
            throw AndroidStatusListFetchFailed("cannot read \(path)")
        }
        guard size <= AndroidRevocationStatusList.maximumBytes else {
            throw AndroidStatusListFetchFailed("\(path) holds \(size) bytes, more than \(AndroidRevocationStatusList.maximumBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AndroidStatusListFetchFailed("cannot read \(path)")
        }
        return Array(data)
    }
}
