import AssentServer
import Foundation

extension FuzzTarget {
    /// An `Authorization: Basic` header as the client API reads its tenant id: the user part, percent-decoded, then
    /// the identifier check.
    static let basicCredentials = FuzzTarget(name: "basic-credentials") { bytes in
        let header = String(decoding: bytes, as: UTF8.self)
        guard let user = BasicCredentials.user(from: header) else { return }
        precondition(!user.isEmpty, "an empty user was accepted")
        guard let tenantID = user.removingPercentEncoding else { return }
        _ = try? ClientCredentials.tenantID(tenantID)
    }
}
