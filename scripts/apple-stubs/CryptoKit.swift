// Stub of the CryptoKit API Assent calls, from Apple's documentation pages (Linux typecheck only). Nothing is
// Sendable here unless Apple documents it, so the typecheck is conservative.
import Foundation
import LocalAuthentication
import Security
public protocol Digest: Sequence where Element == UInt8 {}
public protocol HashFunction { associatedtype D: Digest }
public struct SHA256Digest: Digest { public func makeIterator() -> IndexingIterator<[UInt8]> { [UInt8]().makeIterator() } }
public struct SHA256: HashFunction { public typealias D = SHA256Digest
    public static func hash<T: DataProtocol>(data: T) -> SHA256Digest { SHA256Digest() } }
public enum Insecure {
    public struct SHA1Digest: Digest { public func makeIterator() -> IndexingIterator<[UInt8]> { [UInt8]().makeIterator() } }
    public struct SHA1: HashFunction { public typealias D = SHA1Digest
        public static func hash<T: DataProtocol>(data: T) -> SHA1Digest { SHA1Digest() } }
}
public struct SymmetricKey: ContiguousBytes {
    public init<D: ContiguousBytes>(data: D) {}
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try [UInt8]().withUnsafeBytes(body) }
}
public struct HashedAuthenticationCode<H: HashFunction>: Sequence {
    public func makeIterator() -> IndexingIterator<[UInt8]> { [UInt8]().makeIterator() }
}
public struct HMAC<H: HashFunction> {
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> HashedAuthenticationCode<H> { .init() }
}
public struct HKDF<H: HashFunction> {
    public static func deriveKey<Salt: DataProtocol, Info: DataProtocol>(
        inputKeyMaterial: SymmetricKey, salt: Salt, info: Info, outputByteCount: Int) -> SymmetricKey { SymmetricKey(data: [UInt8]()) }
}
public struct SharedSecret: ContiguousBytes {
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try [UInt8]().withUnsafeBytes(body) }
}
public enum AES { public enum GCM {
    public struct Nonce { public init<D: DataProtocol>(data: D) throws {} }
    public struct SealedBox {
        public var ciphertext: Data { Data() }
        public var tag: Data { Data() }
        public init<C: DataProtocol, T: DataProtocol>(nonce: Nonce, ciphertext: C, tag: T) throws {}
    }
    public static func seal<P: DataProtocol, A: DataProtocol>(_ message: P, using key: SymmetricKey, nonce: Nonce? = nil,
                                                              authenticating authenticatedData: A) throws -> SealedBox { fatalError() }
    public static func open<A: DataProtocol>(_ sealedBox: SealedBox, using key: SymmetricKey, authenticating authenticatedData: A) throws -> Data { Data() }
} }
public enum P256 {
    public enum Signing {
        public struct ECDSASignature {
            public init<D: DataProtocol>(rawRepresentation: D) throws {}
            public var derRepresentation: Data { Data() }
        }
        public struct PublicKey {
            public init<D: ContiguousBytes>(x963Representation: D) throws {}
            public init<B: ContiguousBytes>(compressedRepresentation: B) throws {}
            public var x963Representation: Data { Data() }
            public var rawRepresentation: Data { Data() }
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool { false }
        }
        public struct PrivateKey {
            public init(compactRepresentable: Bool = true) {}
            public init<D: ContiguousBytes>(rawRepresentation: D) throws {}
            public init<B: RandomAccessCollection>(derRepresentation: B) throws where B.Element == UInt8 {}
            public var rawRepresentation: Data { Data() }
            public var publicKey: PublicKey { fatalError() }
            public func signature<D: DataProtocol>(for data: D) throws -> ECDSASignature { fatalError() }
        }
    }
    public enum KeyAgreement {
        public struct PublicKey { public init<D: ContiguousBytes>(x963Representation: D) throws {} }
        public struct PrivateKey {
            public init<D: ContiguousBytes>(rawRepresentation: D) throws {}
            public func sharedSecretFromKeyAgreement(with publicKeyShare: PublicKey) throws -> SharedSecret { SharedSecret() }
        }
    }
}
public enum SecureEnclave {
    public static var isAvailable: Bool { false }
    public enum P256 { public enum Signing { public struct PrivateKey {
        public init(compactRepresentable: Bool = true, accessControl: SecAccessControl, authenticationContext: LAContext? = nil) throws {}
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {}
        public var dataRepresentation: Data { Data() }
        public var publicKey: CryptoKit.P256.Signing.PublicKey { fatalError() }
        public func signature<D: DataProtocol>(for data: D) throws -> CryptoKit.P256.Signing.ECDSASignature { fatalError() }
    } } }
}
