/// An error from encoding a ``QRCodeMatrix`` or rendering it with ``QRCodeImage``.
///
/// Compare errors by ``code``; ``reason`` is for people and may change.
package struct QRCodeImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of what went wrong.
    package struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case invalidSize = "invalid_size"
            case invalidColor = "invalid_color"
            case compressionFailed = "compression_failed"
            case invalidText = "invalid_text"
            case encodingFailed = "encoding_failed"
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The module size or quiet zone is outside ``QRCodeImage/moduleSizes`` or ``QRCodeImage/quietZones``.
        package static let invalidSize = Code(.invalidSize)
        /// An SVG colour is empty, too long, or holds characters no CSS colour uses.
        package static let invalidColor = Code(.invalidColor)
        /// zlib failed to compress the PNG's pixel data.
        package static let compressionFailed = Code(.compressionFailed)

        /// The text is empty or holds a NUL byte.
        package static let invalidText = Code(.invalidText)
        /// libqrencode could not encode the text (too long for any QR version).
        package static let encodingFailed = Code(.encodingFailed)

        /// The code's name, e.g. `invalid_size`.
        package var description: String { value.rawValue }
    }

    /// The stable error category.
    package let code: Code
    /// Human-readable detail.
    package let reason: String
    /// The file that raised the error (`#fileID`).
    package let file: String
    /// The line that raised the error.
    package let line: Int

    /// Creates an error with a code and a reason, recording where it was raised.
    package init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `QRCodeImageError.<code>: <reason> (<file>:<line>)`.
    package var description: String { "QRCodeImageError.\(code): \(reason) (\(file):\(line))" }

    /// Equality on ``code`` only.
    package static func == (lhs: QRCodeImageError, rhs: QRCodeImageError) -> Bool { lhs.code == rhs.code }

    /// Hashes ``code`` only, consistent with `==`.
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
