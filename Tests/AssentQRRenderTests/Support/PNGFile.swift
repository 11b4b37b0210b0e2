import Foundation

/// A PNG file split into chunks by hand, with its own CRC-32, so tests do not trust the code under test.
struct PNGFile {
    struct Chunk {
        var type: String
        var data: [UInt8]
        var storedCRC: UInt32
        /// CRC-32 of type and data, computed here (table-driven, polynomial 0xEDB88320).
        var computedCRC: UInt32 { CRC32.checksum(Array(type.utf8) + data) }
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    var chunks: [Chunk] = []

    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: Self.signature) else { throw Malformed(description: "missing the PNG signature") }
        var offset = Self.signature.count
        while offset < bytes.count {
            guard offset + 12 <= bytes.count else { throw Malformed(description: "truncated chunk at \(offset)") }
            let length = Int(Self.uint32(bytes, offset))
            guard length < 1 << 31, offset + 12 + length <= bytes.count else {
                throw Malformed(description: "chunk at \(offset) claims \(length) bytes")
            }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let data = Array(bytes[offset + 8..<offset + 8 + length])
            chunks.append(Chunk(type: type, data: data, storedCRC: Self.uint32(bytes, offset + 8 + length)))
            offset += 12 + length
        }
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// The CRC-32 of ISO 3309 / ITU-T V.42, as the PNG specification's sample code computes it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

/// A second, independent PNG decoder: Python's zlib and struct, for 1-bit grayscale files with filter type 0.
///
/// It checks every chunk's CRC with `zlib.crc32`, inflates the `IDAT` data, refuses any other filter type, and
/// returns the image as rows of `Bool` (true is black).
enum ReferencePNGDecoder {
    private static let script = #"""
        import struct, sys, zlib
        data = sys.stdin.buffer.read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "signature"
        pos, idat, ihdr = 8, b"", None
        while pos < len(data):
            (length,) = struct.unpack(">I", data[pos:pos + 4])
            kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
            (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
            assert zlib.crc32(kind + body) == crc, "CRC of " + kind.decode()
            if kind == b"IHDR": ihdr = struct.unpack(">IIBBBBB", body)
            if kind == b"IDAT": idat += body
            pos += 12 + length
        width, height, depth, color, compression, filtering, interlace = ihdr
        assert (depth, color, compression, filtering, interlace) == (1, 0, 0, 0, 0), "IHDR " + repr(ihdr)
        raw, stride = zlib.decompress(idat), (width + 7) // 8
        assert len(raw) == height * (1 + stride), "inflated length"
        out = []
        for y in range(height):
            line = raw[y * (1 + stride):(y + 1) * (1 + stride)]
            assert line[0] == 0, "filter type %d on row %d" % (line[0], y)
            out.append("".join("0" if line[1 + x // 8] >> (7 - x % 8) & 1 else "1" for x in range(width)))
        sys.stdout.write("\n".join(out))
        """#

    static func pixels(_ png: [UInt8]) throws -> [[Bool]] {
        let result = try ExternalTool.python3.run(["-c", script], stdin: png)
        guard result.status == 0 else { throw ExternalTool.Failure("the reference decoder refused the PNG: \(result.stderr)") }
        return result.text.split(separator: "\n").map { $0.map { $0 == "1" } }
    }
}
