package import AssentCrypto
import Foundation

/// The parts of a Google service-account JSON file FCM needs.
package struct ServiceAccount: Sendable {
    /// The Firebase project.
    var projectID: String
    /// JWT `iss`.
    package var clientEmail: String
    /// JWT `kid`, when the file names it.
    package var privateKeyID: String?
    /// The RSA key that signs the OAuth assertion.
    package var privateKey: RSA.PrivateKey
    /// Where the assertion is exchanged for an access token.
    package var tokenURI: String

    /// Reads and checks a service-account file.
    ///
    /// - Throws: `AssentError.invalidRequest` naming what is missing or wrong (never echoing the key).
    package init(json: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw AssentError(.invalidRequest, "The service account is not a JSON object.")
        }
        func field(_ name: String) throws -> String {
            guard let value = object[name] as? String, !value.isEmpty else {
                throw AssentError(.invalidRequest, "The service account has no \(name).")
            }
            return value
        }
        if let type = object["type"] as? String, type != "service_account" {
            throw AssentError(.invalidRequest, "The file is not a service account (type \(type)).")
        }
        projectID = try field("project_id")
        clientEmail = try field("client_email")
        privateKeyID = object["private_key_id"] as? String
        tokenURI = (object["token_uri"] as? String) ?? "https://oauth2.googleapis.com/token"
        guard let url = URL(string: tokenURI), ["http", "https"].contains(url.scheme ?? "") else {
            throw AssentError(.invalidRequest, "The service account's token_uri is not an http(s) URL.")
        }
        do {
            privateKey = try RSA.PrivateKey(pkcs8PEM: try field("private_key"))
        } catch let error as AssentError {
            throw error
        } catch {
            throw AssentError(.invalidRequest, "The service account's private_key is not a PKCS#8 RSA key of 2048 bits or more.")
        }
    }
}
