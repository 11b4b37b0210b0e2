import Foundation

/// Google's attestation certificate status list, parsed: the serial numbers it marks revoked or suspended.
///
/// The list is JSON `{"entries": {"<serial, lowercase hex>": {"status": "REVOKED" | "SUSPENDED", "reason": ...}}}`
/// (published at https://android.googleapis.com/attestation/status; fetching it is the server's job, from an
/// operator-set URL or a file). Serials are compared as lowercase hex without leading zeros on both sides. Entries with
/// another status are ignored.
package struct AndroidRevocationStatusList: Sendable, Hashable {
    /// The status of a listed certificate.
    package enum Status: String, Sendable, Hashable {
        case revoked = "REVOKED"
        case suspended = "SUSPENDED"
    }

    /// The largest list accepted (Google's is a few hundred KiB).
    package static let maximumBytes = 16 * 1024 * 1024

    /// Listed serials (normalized hex) and their status.
    package let entries: [String: Status]

    /// Parses the JSON of a status list.
    ///
    /// - Throws: `malformed` when it is not JSON with an `entries` object of objects, `too large` beyond ``maximumBytes``.
    package init(json: [UInt8]) throws(AttestationError) {
        guard json.count <= Self.maximumBytes else { throw AttestationError(.tooLarge, "a status list of \(json.count) bytes") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            throw AttestationError(.malformed, "the status list is not JSON")
        }
        guard let entries = (object as? [String: Any])?["entries"] as? [String: Any] else {
            throw AttestationError(.malformed, "the status list has no entries object")
        }
        var parsed: [String: Status] = [:]
        for (serial, value) in entries {
            guard let entry = value as? [String: Any] else { throw AttestationError(.malformed, "a status list entry is not an object") }
            if let status = (entry["status"] as? String).flatMap(Status.init(rawValue:)) {
                parsed[Self.normalized(serial)] = status
            }
        }
        self.entries = parsed
    }

    /// The status of the certificate with serial `serialHex`, nil when it is not listed (good).
    package func status(ofSerial serialHex: String) -> Status? {
        entries[Self.normalized(serialHex)]
    }

    static func normalized(_ serial: String) -> String {
        let hex = serial.lowercased().drop { $0 == "0" }
        return hex.isEmpty ? "0" : String(hex)
    }
}
