import AssentQRRender
import Testing

@Suite struct QRCodeImagePNGTests {
    @Test(arguments: QRSamples.payloads, QRSamples.corrections)
    func `zbar reads the PNG back as exactly the encoded text`(text: String, correction: QRCodeMatrix.Correction) throws {
        let matrix = try QRCodeMatrix(text, correction: correction)
        let png = try QRCodeImage.png(matrix)
        #expect(try QRReader.decode(png: png) == text)
    }

    @Test(arguments: [(1, 0), (3, 4), (8, 4), (32, 16)])
    func `chunks are IHDR IDAT IEND with correct CRCs and the side is (size + 2 × quiet zone) × module size`(
        moduleSize: Int, quietZone: Int
    ) throws {
        let matrix = try QRCodeMatrix(QRSamples.typical, correction: .medium)
        let file = try PNGFile(try QRCodeImage.png(matrix, moduleSize: moduleSize, quietZone: quietZone))

        #expect(file.chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        for chunk in file.chunks {
            #expect(chunk.storedCRC == chunk.computedCRC, "CRC of \(chunk.type)")
        }
        let header = try #require(file.chunks.first { $0.type == "IHDR" }).data
        let side = UInt32((matrix.size + 2 * quietZone) * moduleSize)
        #expect(header.count == 13)
        #expect(PNGFile.uint32(header, 0) == side)
        #expect(PNGFile.uint32(header, 4) == side)
        #expect(Array(header[8...]) == [1, 0, 0, 0, 0], "1-bit grayscale, deflate, filter method 0, no interlace")
        #expect(file.chunks.last?.data.isEmpty == true)
    }

    @Test(arguments: [(1, 0), (3, 4), (8, 4), (5, 2)])
    func `an independent decoder sees every pixel of the module it belongs to`(moduleSize: Int, quietZone: Int) throws {
        let matrix = try QRCodeMatrix(QRSamples.short, correction: .high)
        let png = try QRCodeImage.png(matrix, moduleSize: moduleSize, quietZone: quietZone)
        let pixels = try ReferencePNGDecoder.pixels(png)

        let side = (matrix.size + 2 * quietZone) * moduleSize
        try #require(pixels.count == side && pixels.allSatisfy { $0.count == side })
        var wrong: [String] = []
        for y in 0..<side {
            for x in 0..<side {
                let (row, column) = (y / moduleSize - quietZone, x / moduleSize - quietZone)
                let inside = (0..<matrix.size).contains(row) && (0..<matrix.size).contains(column)
                if pixels[y][x] != (inside && matrix[row, column]) { wrong.append("(\(x), \(y))") }
            }
        }
        #expect(wrong.isEmpty, "pixels differ from their modules at \(wrong.prefix(10))")
    }

    @Test func `the defaults are 8 pixels per module and a 4-module quiet zone`() throws {
        let matrix = try QRCodeMatrix(QRSamples.short)
        let header = try #require(try PNGFile(try QRCodeImage.png(matrix)).chunks.first).data
        #expect(PNGFile.uint32(header, 0) == UInt32((matrix.size + 8) * 8))
    }

    @Test func `the largest allowed image still reads back`() throws {
        let matrix = try QRCodeMatrix(QRSamples.long, correction: .high)
        let png = try QRCodeImage.png(
            matrix, moduleSize: QRCodeImage.moduleSizes.upperBound, quietZone: QRCodeImage.quietZones.upperBound)
        #expect(try QRReader.decode(png: png) == QRSamples.long)
    }

    @Test(arguments: [(0, 4), (-1, 4), (33, 4), (8, -1), (8, 17), (Int.max, 4), (8, Int.min)])
    func `a module size or quiet zone outside the caps is refused`(moduleSize: Int, quietZone: Int) throws {
        let matrix = try QRCodeMatrix(QRSamples.short)
        let error = #expect(throws: QRCodeImageError.self) {
            try QRCodeImage.png(matrix, moduleSize: moduleSize, quietZone: quietZone)
        }
        #expect(error?.code == .invalidSize)
        #expect(error?.reason.contains(moduleSize == 8 ? "quietZone" : "moduleSize") == true)
    }
}
