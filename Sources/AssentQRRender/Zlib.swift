internal import CZlib

/// The one place this module calls zlib: one-shot compression for PNG `IDAT` data and CRC-32 for PNG chunks.
enum Zlib {
    /// `input` as a zlib stream (RFC 1950) at the best compression level.
    static func compress(_ input: [UInt8]) throws -> [UInt8] {
        guard let sourceLength = uLong(exactly: input.count) else {
            throw QRCodeImageError(.compressionFailed, "\(input.count) bytes are too many for zlib")
        }
        var length = compressBound(sourceLength)
        guard let capacity = Int(exactly: length), capacity > 0 else {
            throw QRCodeImageError(.compressionFailed, "zlib reported no output bound for \(input.count) bytes")
        }
        var output = [UInt8](repeating: 0, count: capacity)
        let status = output.withUnsafeMutableBufferPointer { destination in
            input.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &length, source.baseAddress, sourceLength, Z_BEST_COMPRESSION)
            }
        }
        guard status == Z_OK else {
            throw QRCodeImageError(.compressionFailed, "zlib compress2 returned \(status) (\(message(status)))")
        }
        guard let written = Int(exactly: length), written <= capacity else {
            throw QRCodeImageError(.compressionFailed, "zlib compress2 reported \(length) bytes in a \(capacity)-byte buffer")
        }
        output.removeSubrange(written...)
        return output
    }

    /// The CRC-32 (ISO 3309, as PNG uses it) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        let crc = bytes.withUnsafeBufferPointer { buffer in
            CZlib.crc32_z(0, buffer.baseAddress, z_size_t(buffer.count))
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    private static func message(_ status: Int32) -> String {
        guard let text = zError(status) else { return "unknown zlib error" }
        return String(cString: text)
    }
}
