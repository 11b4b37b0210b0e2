extension QRCodeImage {
    /// The symbol as a PNG file: 1-bit grayscale, not interlaced, every scanline with filter type 0.
    ///
    /// - Parameters:
    ///   - matrix: The symbol to draw.
    ///   - moduleSize: Pixels per module, in ``moduleSizes``.
    ///   - quietZone: White margin in modules, in ``quietZones``.
    /// - Returns: The bytes of the file: signature, `IHDR`, one `IDAT`, `IEND`.
    /// - Throws: ``QRCodeImageError`` with code ``QRCodeImageError/Code/invalidSize`` or
    ///   ``QRCodeImageError/Code/compressionFailed``.
    package static func png(_ matrix: QRCodeMatrix, moduleSize: Int = 8, quietZone: Int = 4) throws -> [UInt8] {
        let side = try side(of: matrix, moduleSize: moduleSize, quietZone: quietZone)
        let pixels = side * moduleSize
        let rowBytes = (pixels + 7) / 8

        // One filter byte (0, none) then the packed row; a 1 bit is white. Each module row repeats moduleSize times.
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity((1 + rowBytes) * pixels)
        for moduleRow in 0..<side {
            var line = [UInt8](repeating: 0, count: rowBytes)
            for x in 0..<pixels where !isDark(matrix, moduleRow - quietZone, x / moduleSize - quietZone) {
                line[x >> 3] |= 0x80 >> UInt8(x & 7)
            }
            for _ in 0..<moduleSize {
                scanlines.append(0)
                scanlines.append(contentsOf: line)
            }
        }

        var header: [UInt8] = []
        header.appendBigEndian(UInt32(pixels))
        header.appendBigEndian(UInt32(pixels))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filtering, no interlace

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file.appendChunk("IHDR", header)
        file.appendChunk("IDAT", try Zlib.compress(scanlines))
        file.appendChunk("IEND", [])
        return file
    }

    /// Whether a module is dark, with everything outside the symbol (the quiet zone) light.
    private static func isDark(_ matrix: QRCodeMatrix, _ row: Int, _ column: Int) -> Bool {
        (0..<matrix.size).contains(row) && (0..<matrix.size).contains(column) && matrix[row, column]
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// Length, type, data and the CRC-32 of type and data. The caps on sizes keep `data` far below 2³¹ bytes.
    fileprivate mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        let typeAndData = Array(type.utf8) + data
        appendBigEndian(UInt32(data.count))
        append(contentsOf: typeAndData)
        appendBigEndian(Zlib.crc32(typeAndData))
    }
}
