/// Where Google's Android attestation status list comes from: an operator's URL (`--android-attestation-status-url`,
/// fetched over HTTP by the server's outbound client) or a file (`--android-attestation-status-file`). Nothing reads
/// it before ``AndroidStatusList`` decides it is needed.
package protocol AndroidStatusListSource: Sendable {
    /// Where it is read from, for the server log (a URL or a path; never a secret).
    var location: String { get }
    /// The list's bytes as the source holds them now.
    ///
    /// - Throws: ``AndroidStatusListFetchFailed`` (or any error) when there is no answer, a status other than 200, or
    ///   more than `AndroidRevocationStatusList.maximumBytes`.
    func read() async throws -> [UInt8]
}

/// A status list that could not be read; the reason goes to the server log.
package struct AndroidStatusListFetchFailed: Error, CustomStringConvertible, Sendable {
    /// What went wrong, e.g. `HTTP 503` or `connect_failed: ...`.
    package var reason: String

    /// A failure with `reason`.
    package init(_ reason: String) { self.reason = reason }

    package var description: String { reason }
}
