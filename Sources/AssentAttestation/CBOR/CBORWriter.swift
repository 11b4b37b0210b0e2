/// Writes a ``CBORValue`` (RFC 8949, definite lengths, each argument in its shortest form, map entries in the order
/// given): what the test attestation authority needs for App Attest objects, COSE keys and assertions, and what
/// ``CBORReader`` reads back.
package enum CBORWriter {
    /// The encoding of `value`.
    package static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): return head(0, n)
        case .negative(let n): return head(1, n)
        case .bytes(let bytes): return head(2, UInt64(bytes.count)) + bytes
        case .text(let text): return head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): return head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries):
            return head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        }
    }

    /// The integer `value` as `.unsigned` or `.negative`.
    package static func integer(_ value: Int64) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xff: return [type | 24, UInt8(argument)]
        case 0x100...0xffff: return [type | 25] + bigEndian(argument, width: 2)
        case 0x1_0000...0xffff_ffff: return [type | 26] + bigEndian(argument, width: 4)
        default: return [type | 27] + bigEndian(argument, width: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
