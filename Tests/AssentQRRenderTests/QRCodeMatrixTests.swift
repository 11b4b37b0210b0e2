import AssentQRRender
import Testing

@Suite struct QRCodeMatrixTests {
    @Test func `a short text gives a square symbol with the three finder patterns`() throws {
        let matrix = try QRCodeMatrix("assent://qr?tenant=t&challenge=c")
        #expect(matrix.size >= 21 && (matrix.size - 17) % 4 == 0)
        #expect(matrix.modules.count == matrix.size * matrix.size)
        // Finder pattern corners are dark; the separator next to them is light.
        for (row, column) in [(0, 0), (0, matrix.size - 1), (matrix.size - 1, 0)] {
            #expect(matrix[row, column])
        }
        #expect(!matrix[7, 7])
    }

    @Test func `empty text is refused`() {
        #expect(throws: QRCodeImageError(.invalidText, "")) { try QRCodeMatrix("") }
    }
}
