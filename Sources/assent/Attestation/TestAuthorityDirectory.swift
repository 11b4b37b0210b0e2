import Assent
import AssentAttestation
import AssentCrypto
import AssentServerCore
import Foundation

/// A test attestation authority on disk (`assent admin attestation test-authority create DIR`), a directory only its
/// owner can use (`0700`, files `0600`): `root.pem`, the root certificate that `assentd --attestation-roots` takes;
/// `root-key.pem`, its private key (PKCS#8); `authority.json`, the app identities its attestations name unless an
/// enrolment's flags say otherwise. `--attest-with DIR` reads it back.
struct TestAuthorityDirectory {
    /// The app identities an attestation names.
    struct Identities: Codable, Sendable, Equatable {
        /// The Android package of the attestationApplicationId.
        var androidPackage: String
        /// The SHA-256 of the package's signing certificate, lowercase hex.
        var signingCertificateSha256: String
        /// The App Attest app id, `TEAMID.bundle.id`.
        var appleAppId: String

        /// What `create` writes without flags: the identities of the project's own test authority fixtures.
        static let defaults = Identities(
            androidPackage: "dev.assent.example",
            signingCertificateSha256: Hex.encode(SHA256.hash(Array("assent test signing certificate".utf8))),
            appleAppId: "TESTTEAM01.dev.assent.example")
    }

    /// The directory.
    let path: String

    var rootPath: String { (path as NSString).appendingPathComponent("root.pem") }
    var keyPath: String { (path as NSString).appendingPathComponent("root-key.pem") }
    var identitiesPath: String { (path as NSString).appendingPathComponent("authority.json") }

    /// Writes a new authority (`nowSeconds` starts its validity); the directory must not hold one already.
    func create(identities: Identities, nowSeconds: Int64) throws -> AttestationTestAuthority {
        let authority = try AttestationTestAuthority.create(nowSeconds: nowSeconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try SecureFile.prepareDirectory(path, create: true)
            guard try SecureFile.write(Array(authority.rootKeyPEM.utf8), to: keyPath, replace: false) else {
                throw CLIError.failure("\(path) already holds a test authority (\(keyPath))", errorCode: "already_exists")
            }
            try SecureFile.write(Array(authority.rootCertificatePEM.utf8), to: rootPath)
            try SecureFile.write(Array(try encoder.encode(identities)) + [0x0A], to: identitiesPath)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failure("cannot write the test authority to \(path): \(ErrorText.describe(error))")
        }
        return authority
    }

    /// The authority and its identities, as `create` wrote them.
    func load() throws -> (authority: AttestationTestAuthority, identities: Identities) {
        func read(_ file: String) throws -> [UInt8] {
            do {
                guard try SecureFile.prepareDirectory(path, create: false), let bytes = try SecureFile.read(file) else {
                    throw CLIError.failure(
                        "\(path) holds no test authority (no \(file)); create one with "
                            + "'assent admin attestation test-authority create \(path)'", errorCode: "not_found")
                }
                return bytes
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError.failure("cannot read \(file): \(ErrorText.describe(error))")
            }
        }
        let keyText = String(decoding: try read(keyPath), as: UTF8.self)
        let rootText = String(decoding: try read(rootPath), as: UTF8.self)
        guard let identities = try? JSONDecoder().decode(Identities.self, from: Data(try read(identitiesPath))) else {
            throw CLIError.failure("\(identitiesPath) is damaged", errorCode: "corrupted")
        }
        do {
            let key = try P256.PrivateKey(pkcs8PEM: keyText)
            guard let root = PEM.der(from: rootText, label: "CERTIFICATE") else {
                throw CLIError.failure("\(rootPath) holds no certificate", errorCode: "corrupted")
            }
            return (try AttestationTestAuthority(rootKey: key, rootCertificate: root), identities)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.failure("the test authority in \(path) cannot be used: \(error)", errorCode: "corrupted")
        }
    }

}
