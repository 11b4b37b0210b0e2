import AssentCrypto

/// `assent signature ...`: PowerAuth diagnostics for integrators whose signatures do not verify.
enum SignatureCommands {
    /// The `signature` group.
    static let group = Command.group("signature", "PowerAuth signature diagnostics", [compute])

    static let compute = Command.leaf(
        "compute", "print the PowerAuth signature of normalized data (and nothing else)",
        details: """
            Computes the PowerAuth 3.x multi-factor signature exactly as a device does: --data is the Base64 of the
            normalized request data (METHOD&B64(uriId)&nonce&B64(body)&applicationSecret), --counter-data the Base64
            of the 16-byte CTR_DATA, the keys the Base64 of the 16-byte factor keys the type needs.
            Types: \(PowerAuthSignatureType.allCases.map(\.rawValue).joined(separator: ", ")).
            --format base64 (versions 3.1+, the default) or decimal (3.0 and offline; --component-length 4..8, default 8).
            """,
        options: [
            .optional("--possession-key", "B64", "KEY_SIGNATURE_POSSESSION (16 bytes)"),
            .optional("--knowledge-key", "B64", "KEY_SIGNATURE_KNOWLEDGE (16 bytes)"),
            .optional("--biometry-key", "B64", "KEY_SIGNATURE_BIOMETRY (16 bytes)"),
            .required("--counter-data", "B64", "CTR_DATA (16 bytes)"),
            .required("--type", "TYPE", "the signature type"),
            .required("--data", "B64", "the normalized data to sign (may be empty)"),
            .optional("--format", "base64|decimal", "output format (default base64)"),
            .optional("--component-length", "4..8", "digits per decimal component (default 8)"),
        ]
    ) { invocation in
        let options = invocation.options
        let typeName = try options.required("--type")
        guard let type = PowerAuthSignatureType(rawValue: typeName) else {
            throw CLIError.usage("--type must be one of \(PowerAuthSignatureType.allCases.map(\.rawValue).joined(separator: ", ")); got '\(typeName)'")
        }
        func key(_ name: String, _ factor: PowerAuthFactor) throws -> [UInt8]? {
            guard let text = options.string(name) else {
                if type.factors.contains(factor) { throw CLIError.usage("a \(type.rawValue) signature needs \(name)") }
                return nil
            }
            return try bytes(text, name, count: 16)
        }
        let keys = PowerAuthSignatureKeys(
            possession: try key("--possession-key", .possession), knowledge: try key("--knowledge-key", .knowledge),
            biometry: try key("--biometry-key", .biometry))
        let counter = try bytes(try options.required("--counter-data"), "--counter-data", count: 16)
        let data = try bytes(try options.required("--data"), "--data", count: nil)
        let format: PowerAuthSignatureFormat
        let lengthText = options.string("--component-length")
        switch options.string("--format")?.lowercased() ?? "base64" {
        case "base64":
            guard lengthText == nil else { throw CLIError.usage("--component-length applies only to --format decimal") }
            format = .base64
        case "decimal":
            let length = lengthText.map { Int($0) } ?? 8
            guard let length, PowerAuthSignatureFormat.componentLengths.contains(length) else {
                throw CLIError.usage("--component-length must be a whole number from 4 to 8, got '\(lengthText ?? "")'")
            }
            format = .decimal(componentLength: length)
        case let other:
            throw CLIError.usage("--format must be base64 or decimal, got '\(other)'")
        }
        let signature: String
        do {
            signature = try PowerAuthSignature.compute(type: type, keys: keys, counterData: counter, data: data, format: format)
        } catch let error as CryptoError {
            throw CLIError.usage(error.reason)
        }
        try invocation.output.result(["signature": signature]) { signature }
    }

    /// Base64 (standard, padded or not) of `count` bytes when given.
    private static func bytes(_ text: String, _ name: String, count: Int?) throws -> [UInt8] {
        guard let bytes = Base64.decode(text) else { throw CLIError.usage("\(name) is not Base64") }
        if let count, bytes.count != count {
            throw CLIError.usage("\(name) must be Base64 of \(count) bytes, got \(bytes.count)")
        }
        return bytes
    }
}
