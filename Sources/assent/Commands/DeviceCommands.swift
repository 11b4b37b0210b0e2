/// `assent device ...`: this machine as a device — "a phone in your terminal" — built on the `Assent` SDK.
enum DeviceCommands {
    /// The `device` group.
    static let group = Command.group(
        "device", "act as a device: enrol, answer push and QR code challenges, PowerAuth activation and signatures",
        details: """
            The device lives in --home DIR (or ASSENT_DEVICE_HOME; default ~/.assent-device, mode 0700): device.json
            remembers the tenant and server from enrolment, keys/ holds the private keys. Keys are sealed with
            AES-256-GCM under a key derived from ASSENT_DEVICE_PASSPHRASE (PBKDF2-HMAC-SHA256, 600000 rounds) when it is
            set, otherwise under a random key file in keys/ (which protects against stray copies of a key file, not
            against someone who can read the whole directory). Use the same passphrase setting for every command.
            """,
        [
            DevicePushCommands.group, DeviceQRCommands.group, DeviceActivationCommands.activate,
            DeviceActivationCommands.status, DeviceActivationCommands.sign, DeviceBiometryCommands.group,
        ])
}
