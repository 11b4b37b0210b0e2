#if canImport(COpenSSL)
internal import COpenSSL

/// Owns an algorithm implementation fetched once from OpenSSL's default provider
/// (`EVP_MD_fetch` / `EVP_CIPHER_fetch`), so hot paths skip OpenSSL 3's per-call implicit fetch.
///
/// `@unchecked Sendable`: fetched `EVP_MD` / `EVP_CIPHER` objects are immutable and reference
/// counted with atomics; OpenSSL documents them as safe to share between threads.
final class FetchedAlgorithm: @unchecked Sendable {
    private enum Kind {
        case digest
        case cipher
    }

    let pointer: OpaquePointer
    private let kind: Kind

    private init(pointer: OpaquePointer, kind: Kind) {
        self.pointer = pointer
        self.kind = kind
    }

    deinit {
        switch kind {
        case .digest: EVP_MD_free(pointer)
        case .cipher: EVP_CIPHER_free(pointer)
        }
    }

    /// Fetches a digest; a missing default provider is a broken installation, so this traps.
    private static func digest(_ name: String) -> FetchedAlgorithm {
        guard let md = EVP_MD_fetch(nil, name, nil) else {
            fatalError("\(CryptoError.openSSL("EVP_MD_fetch(\(name))"))")
        }
        return FetchedAlgorithm(pointer: md, kind: .digest)
    }

    /// Fetches a cipher; a missing default provider is a broken installation, so this traps.
    private static func cipher(_ name: String) -> FetchedAlgorithm {
        guard let cipher = EVP_CIPHER_fetch(nil, name, nil) else {
            fatalError("\(CryptoError.openSSL("EVP_CIPHER_fetch(\(name))"))")
        }
        return FetchedAlgorithm(pointer: cipher, kind: .cipher)
    }

    static let sha1 = digest("SHA1")
    static let sha256 = digest("SHA256")

    static let aes128GCM = cipher("AES-128-GCM")
    static let aes192GCM = cipher("AES-192-GCM")
    static let aes256GCM = cipher("AES-256-GCM")
    static let aes128CBC = cipher("AES-128-CBC")
    static let aes192CBC = cipher("AES-192-CBC")
    static let aes256CBC = cipher("AES-256-CBC")
    static let aes128ECB = cipher("AES-128-ECB")
    static let aes192ECB = cipher("AES-192-ECB")
    static let aes256ECB = cipher("AES-256-ECB")
}

#endif
