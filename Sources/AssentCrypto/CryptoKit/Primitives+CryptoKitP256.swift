#if canImport(CryptoKit)
import CryptoKit
import Foundation

// P-256 keys, ECDSA and ECDH through CryptoKit on Apple platforms. Scalars, point encodings and DER signatures
// arrive checked by `P256` and `ECDSASignature` (shared code). Apple documentation of each API called:
// - P256.Signing.PrivateKey (init(), init(rawRepresentation:), init(derRepresentation:), rawRepresentation,
//   publicKey, signature(for:)): https://developer.apple.com/documentation/cryptokit/p256/signing/privatekey
// - P256.Signing.PublicKey (init(x963Representation:), init(compressedRepresentation:), x963Representation,
//   rawRepresentation, isValidSignature(_:for:)): https://developer.apple.com/documentation/cryptokit/p256/signing/publickey
// - P256.Signing.ECDSASignature (init(rawRepresentation:), derRepresentation):
//   https://developer.apple.com/documentation/cryptokit/p256/signing/ecdsasignature
// - P256.KeyAgreement.PrivateKey.sharedSecretFromKeyAgreement(with:):
//   https://developer.apple.com/documentation/cryptokit/p256/keyagreement/privatekey/sharedsecretfromkeyagreement(with:)
// - SharedSecret.withUnsafeBytes: https://developer.apple.com/documentation/cryptokit/sharedsecret
extension Primitives {
    /// A CryptoKit signing key. `@unchecked Sendable`: CryptoKit keys are immutable values, read-only after creation.
    struct P256KeyPair: @unchecked Sendable {
        let signing: CryptoKit.P256.Signing.PrivateKey
    }

    /// A CryptoKit public key (validated on the curve by CryptoKit's initializers). `@unchecked Sendable` as above.
    struct P256Point: @unchecked Sendable {
        let signing: CryptoKit.P256.Signing.PublicKey
    }

    static func p256Generate() -> P256KeyPair {
        P256KeyPair(signing: CryptoKit.P256.Signing.PrivateKey())
    }

    static func p256KeyPair(scalar: [UInt8]) throws(CryptoError) -> P256KeyPair {
        do {
            return P256KeyPair(signing: try CryptoKit.P256.Signing.PrivateKey(rawRepresentation: scalar))
        } catch {
            throw CryptoError(.invalidKey, "P-256 private key import failed: \(error)")
        }
    }

    static func p256Scalar(_ key: P256KeyPair) -> [UInt8] {
        Array(key.signing.rawRepresentation)
    }

    static func p256PublicPoint(_ key: P256KeyPair) throws(CryptoError) -> [UInt8] {
        Array(key.signing.publicKey.x963Representation)
    }

    static func p256Point(x962: [UInt8]) throws(CryptoError) -> (P256Point, [UInt8]) {
        do {
            let key = x962.count == 65
                ? try CryptoKit.P256.Signing.PublicKey(x963Representation: x962)
                : try CryptoKit.P256.Signing.PublicKey(compressedRepresentation: x962)
            return (P256Point(signing: key), Array(key.x963Representation))
        } catch {
            throw CryptoError(.invalidKey, "P-256 point import failed: \(error)")
        }
    }

    static func p256Sign(_ key: P256KeyPair, message: [UInt8]) throws -> [UInt8] {
        do {
            return Array(try key.signing.signature(for: message).derRepresentation)
        } catch {
            throw CryptoError(.internalFailure, "P-256 signing failed: \(error)")
        }
    }

    /// Strict DER is decided by `ECDSASignature.raw(fromDER:)` (shared); CryptoKit then checks `r || s`.
    static func p256Verify(_ key: P256Point, derSignature: [UInt8], message: [UInt8]) -> Bool {
        guard let raw = ECDSASignature.raw(fromDER: derSignature),
              let signature = try? CryptoKit.P256.Signing.ECDSASignature(rawRepresentation: raw)
        else { return false }
        return key.signing.isValidSignature(signature, for: message)
    }

    static func p256SharedSecret(_ key: P256KeyPair, _ peer: P256Point) throws -> [UInt8] {
        do {
            let agreement = try CryptoKit.P256.KeyAgreement.PrivateKey(rawRepresentation: key.signing.rawRepresentation)
            let peerKey = try CryptoKit.P256.KeyAgreement.PublicKey(x963Representation: peer.signing.x963Representation)
            return try agreement.sharedSecretFromKeyAgreement(with: peerKey).withUnsafeBytes { Array($0) }
        } catch {
            throw CryptoError(.invalidKey, "P-256 ECDH failed: \(error)")
        }
    }

    /// CryptoKit's DER initializer reads PKCS#8 (and SEC1) P-256 keys and refuses other curves and algorithms.
    static func pkcs8P256Scalar(_ der: [UInt8]) throws -> [UInt8] {
        do {
            return Array(try CryptoKit.P256.Signing.PrivateKey(derRepresentation: der).rawRepresentation)
        } catch {
            throw CryptoError(.invalidKey, "PKCS#8 P-256 key import failed: \(error)")
        }
    }
}

#endif
