/// Renders a ``QRCodeMatrix`` as an image: SVG text to inline in a web page, or PNG bytes for anything else.
///
/// Both formats draw dark modules in `moduleSize`-pixel squares surrounded by a light quiet zone of
/// `quietZone` modules, so an image is `(matrix.size + 2 * quietZone) * moduleSize` pixels on each side.
package enum QRCodeImage {
    /// The accepted pixels per module. Past 32 the largest symbol would be thousands of pixels wide.
    package static let moduleSizes: ClosedRange<Int> = 1...32
    /// The accepted quiet-zone widths, in modules. The QR standard asks for 4; 0 suits a page that adds its own margin.
    package static let quietZones: ClosedRange<Int> = 0...16

    /// The image's side in modules, quiet zone included, after checking the sizes are in range.
    static func side(of matrix: QRCodeMatrix, moduleSize: Int, quietZone: Int) throws -> Int {
        guard moduleSizes.contains(moduleSize) else {
            throw QRCodeImageError(
                .invalidSize, "moduleSize \(moduleSize) is outside \(moduleSizes.lowerBound)...\(moduleSizes.upperBound)")
        }
        guard quietZones.contains(quietZone) else {
            throw QRCodeImageError(
                .invalidSize, "quietZone \(quietZone) is outside \(quietZones.lowerBound)...\(quietZones.upperBound)")
        }
        return matrix.size + 2 * quietZone
    }
}
