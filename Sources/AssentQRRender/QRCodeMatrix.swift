internal import CQREncode
import Foundation

/// The modules (dark/light squares) of a QR code for some text, produced by libqrencode.
package struct QRCodeMatrix: Sendable, Hashable {
    /// Error-correction level: how much of the symbol may be damaged and still read.
    package enum Correction: Sendable {
        /// About 7 %.
        case low
        /// About 15 %.
        case medium
        /// About 25 %.
        case quartile
        /// About 30 %.
        case high
    }

    /// Modules per side.
    package let size: Int
    /// Row-major, `size * size` values; true is dark.
    package let modules: [Bool]

    /// Encodes `text` as 8-bit data at the smallest version that fits.
    package init(_ text: String, correction: Correction = .medium) throws {
        let level: QRecLevel
        switch correction {
        case .low: level = QR_ECLEVEL_L
        case .medium: level = QR_ECLEVEL_M
        case .quartile: level = QR_ECLEVEL_Q
        case .high: level = QR_ECLEVEL_H
        }
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else {
            throw QRCodeImageError(.invalidText, "the text must be non-empty and hold no NUL")
        }
        guard let code = bytes.withUnsafeBufferPointer({ QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, level) }) else {
            throw QRCodeImageError(.encodingFailed, "libqrencode could not encode \(bytes.count) bytes: \(String(cString: strerror(errno)))")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        size = width
        modules = data.map { $0 & 1 == 1 }
    }

    /// Whether the module at `row`, `column` is dark.
    package subscript(row: Int, column: Int) -> Bool { modules[row * size + column] }
}
