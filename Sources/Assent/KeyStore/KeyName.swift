/// The key names every ``KeyStore`` accepts: 1 to 128 of `A-Z a-z 0-9 _ - .`, not starting with `.`.
package enum KeyName {
    /// Whether `name` is a key name every store accepts.
    package static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128, !name.hasPrefix(".") else { return false }
        return name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
