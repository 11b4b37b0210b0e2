/// The access control a Keychain-backed key gets, decided from its ``KeyAccessPolicy`` here (shared code, tested on
/// Linux) and turned into `SecAccessControlCreateFlags` by the Apple-only adapter, flag for flag.
///
/// Rules:
/// - A Secure Enclave key always carries `privateKeyUsage` (the flag that lets the enclave sign with it).
/// - iOS style, ``KeyAccessPolicy/userPresenceRequired``: `userPresence` (biometrics or the passcode, every use).
/// - Android style, ``KeyAccessPolicy/userAuthenticationRequired`` with `timeout` 0 (every use): the methods of
///   ``KeyAccessPolicy/authorizationType`` — `biometryCurrentSet` (so enrolling another finger or face invalidates
///   the key), `devicePasscode`, or both joined by `or`.
/// - A `timeout` above 0 has no Keychain equivalent (the hardware asks on every use or never), so such a key gets no
///   user flags and the SDK's ``UserAuthenticationGate`` enforces the window, as on Linux.
/// - A software key (no Secure Enclave) gets no flags: its item is readable only while the device is unlocked and
///   never leaves it (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`), and the SDK enforces the policy before use.
package struct KeychainAccessControl: Sendable, Hashable {
    /// One `SecAccessControlCreateFlags` member.
    package enum Flag: String, Sendable, Hashable {
        case privateKeyUsage
        case userPresence
        case biometryCurrentSet
        case devicePasscode
        case or
    }

    /// The flags, in the order they are combined.
    package let flags: [Flag]

    /// Whether the hardware itself asks the user before the key is used.
    package var requiresUserAuthentication: Bool {
        flags.contains { $0 == .userPresence || $0 == .biometryCurrentSet || $0 == .devicePasscode }
    }

    /// The access control for a key with `policy`, in the Secure Enclave or not.
    package init(policy: KeyAccessPolicy, secureEnclave: Bool) {
        guard secureEnclave else {
            flags = []
            return
        }
        var flags: [Flag] = [.privateKeyUsage]
        if policy.userPresenceRequired, !policy.userAuthenticationRequired {
            flags.append(.userPresence)
        } else if policy.userAuthenticationRequired, policy.validityMilliseconds == 0 {
            switch policy.allowedMethods {
            case .biometric: flags.append(.biometryCurrentSet)
            case .deviceCredential: flags.append(.devicePasscode)
            case .biometricOrDeviceCredential: flags += [.biometryCurrentSet, .or, .devicePasscode]
            }
        }
        self.flags = flags
    }
}
