import AssentCrypto
import Foundation

/// The server's master keys: numbered versions of 32 random bytes, one of them current.
///
/// Everything secret derives from a version: tenant secret keys (each tenant records the version its secret came
/// from, ``Tenant/secretKeyRingVersion``), token keys (the version is in the token's key id), nonce and console CSRF
/// keys, the sealing keys of push credentials and PowerAuth secrets (the version is in the sealed value), and audit
/// MACs (the version is in the MAC). New things use the **current** version; older **active** versions still verify
/// and unseal what was made under them; a **retired** version signs, verifies and unseals nothing but audit MACs,
/// which stay verifiable forever so a tenant's chain verifies across every rotation.
///
/// A single-key install is a ring of one: its `master.key` (base64 of 32 bytes, one line) reads as version 1, and
/// everything version 1 makes looks exactly as it did before rings existed. A rotated ring is written as text:
///
///     assent-master-key-ring 1
///     current 2
///     1 retired <base64 of 32 bytes>
///     2 active <base64 of 32 bytes>
package struct MasterKeyRing: Sendable, Equatable {
    /// One numbered key.
    package struct Version: Sendable, Equatable {
        /// Its number, from 1.
        package var number: Int
        /// The 32 key bytes.
        package var key: [UInt8]
        /// Whether it no longer signs or unseals anything (audit MACs still verify).
        package var retired: Bool
    }

    /// The versions, ascending by number.
    package private(set) var versions: [Version]
    /// The version new keys, tokens and sealed values use.
    package private(set) var current: Int

    /// The first line of a ring file.
    static let header = "assent-master-key-ring 1"

    /// A ring of one: `key` as version 1, current (how a single `master.key` reads).
    package init(single key: [UInt8]) {
        versions = [Version(number: 1, key: key, retired: false)]
        current = 1
    }

    /// The ring whose current version is `current` among `versions`; checks what ``parse(_:source:)`` checks.
    package init(versions: [Version], current: Int) throws {
        let sorted = versions.sorted { $0.number < $1.number }
        for (index, version) in sorted.enumerated() {
            guard version.number >= 1, version.key.count == 32 else {
                throw MasterKeyRingError(.malformed, "version \(version.number) must be a number from 1 with a 32-byte key")
            }
            if index > 0, sorted[index - 1].number == version.number {
                throw MasterKeyRingError(.malformed, "version \(version.number) appears twice")
            }
        }
        guard let currentVersion = sorted.first(where: { $0.number == current }) else {
            throw MasterKeyRingError(.malformed, "the current version \(current) is not in the ring")
        }
        guard !currentVersion.retired else {
            throw MasterKeyRingError(.malformed, "the current version \(current) is retired")
        }
        self.versions = sorted
        self.current = current
    }

    // MARK: Keys

    /// The current version's key.
    package var currentKey: [UInt8] { versions.first { $0.number == current }?.key ?? [] }

    /// The key of an active (not retired) version, for verifying and unsealing; nil when retired or unknown.
    package func activeKey(_ number: Int) -> [UInt8]? {
        versions.first { $0.number == number && !$0.retired }?.key
    }

    /// The key of any version, retired or not — for audit MACs only, which stay verifiable forever.
    package func auditKey(_ number: Int) -> [UInt8]? {
        versions.first { $0.number == number }?.key
    }

    /// The numbers of the retired versions.
    package var retired: [Int] { versions.filter(\.retired).map(\.number) }

    /// Whether the ring has a version with this number (retired or not).
    package func contains(_ number: Int) -> Bool { versions.contains { $0.number == number } }

    /// The newest active version older than the current one: what pending nonces and console sessions made just
    /// before the last rotation were keyed with. Nil when there is none.
    package var previous: Int? {
        versions.last { $0.number < current && !$0.retired }?.number
    }

    /// The active versions, current first, then ``previous`` — the ones short-lived MACs are checked against.
    package var recent: [Int] { [current] + (previous.map { [$0] } ?? []) }

    // MARK: Changes

    /// This ring with `key` added as the next version and made current.
    package func rotated(adding key: [UInt8]) -> MasterKeyRing {
        var ring = self
        let number = (versions.last?.number ?? 0) + 1
        ring.versions.append(Version(number: number, key: key, retired: false))
        ring.current = number
        return ring
    }

    /// This ring with `number` retired. Refuses the current version, an unknown one and one already retired;
    /// whether anything still depends on it is for the caller to check first.
    package func retiring(_ number: Int) throws -> MasterKeyRing {
        guard let index = versions.firstIndex(where: { $0.number == number }) else {
            throw MasterKeyRingError(.unknownVersion, "the master key ring has no version \(number)")
        }
        guard number != current else {
            throw MasterKeyRingError(
                .currentVersion, "version \(number) is current: rotate first (assent admin master-key rotate), then retire it")
        }
        guard !versions[index].retired else {
            throw MasterKeyRingError(.alreadyRetired, "version \(number) is already retired")
        }
        var ring = self
        ring.versions[index].retired = true
        return ring
    }

    // MARK: Text

    /// The ring file's text (see the type's documentation): one line of base64 for a ring of one key that has never
    /// been rotated, as `master.key` always was.
    package var text: String {
        if versions.count == 1, current == 1 { return Base64.encode(currentKey) + "\n" }
        return ([Self.header, "current \(current)"] + versions.map {
            "\($0.number) \($0.retired ? "retired" : "active") \(Base64.encode($0.key))"
        }).joined(separator: "\n") + "\n"
    }

    /// Reads a ring file's text, or a single key's (one line of base64, version 1). `source` names the file in errors.
    package static func parse(_ text: String, source: String) throws -> MasterKeyRing {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let first = lines.first else {
            throw MasterKeyRingError(.malformed, "\(source) is empty; it must hold base64 of exactly 32 bytes or a key ring")
        }
        guard first == header else {
            guard lines.count == 1, let key = Base64.decode(first), key.count == 32 else {
                throw MasterKeyRingError(.malformed, "\(source) must hold base64 of exactly 32 bytes or a key ring")
            }
            return MasterKeyRing(single: key)
        }
        guard lines.count >= 3 else {
            throw MasterKeyRingError(.malformed, "\(source) is a key ring without versions")
        }
        let currentFields = lines[1].split(separator: " ")
        guard currentFields.count == 2, currentFields[0] == "current", let current = Int(currentFields[1]) else {
            throw MasterKeyRingError(.malformed, "\(source) line 2 must be `current N`")
        }
        var versions: [Version] = []
        for (offset, line) in lines.dropFirst(2).enumerated() {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let number = Int(fields[0]), ["active", "retired"].contains(fields[1]),
                  let key = Base64.decode(String(fields[2])), key.count == 32
            else {
                throw MasterKeyRingError(
                    .malformed, "\(source) line \(offset + 3) must be `N active|retired <base64 of 32 bytes>`")
            }
            versions.append(Version(number: number, key: key, retired: fields[1] == "retired"))
        }
        do {
            return try MasterKeyRing(versions: versions, current: current)
        } catch let error as MasterKeyRingError {
            throw MasterKeyRingError(error.code, "\(source): \(error.reason)")
        }
    }
}
