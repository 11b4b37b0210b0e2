/// An error from encoding a ``QRCodeMatrix`` or rendering it with ``QRCodeImage``.
///
/// Compare errors by ``code``; ``reason`` is for people and may change.
public struct QRCodeImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable identifier of what went wrong.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
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
        public static let invalidSize = Code(.invalidSize)
        /// An SVG colour is empty, too long, or holds characters no CSS colour uses.
        public static let invalidColor = Code(.invalidColor)
        /// zlib failed to compress the PNG's pixel data.
        public static let compressionFailed = Code(.compressionFailed)

        /// The text is empty or holds a NUL byte.
        public static let invalidText = Code(.invalidText)
        /// libqrencode could not encode the text (too long for any QR version).
        public static let encodingFailed = Code(.encodingFailed)

        /// The code's name, e.g. `invalid_size`.
        public var description: String { value.rawValue }
    }

    /// The stable error category.
    public let code: Code
    /// Human-readable detail.
    public let reason: String
    /// The file that raised the error (`#fileID`).
    public let file: String
    /// The line that raised the error.
    public let line: Int

    /// Creates an error with a code and a reason, recording where it was raised.
    public init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `QRCodeImageError.<code>: <reason> (<file>:<line>)`.
    public var description: String { "QRCodeImageError.\(code): \(reason) (\(file):\(line))" }

    /// Equality on ``code`` only.
    public static func == (lhs: QRCodeImageError, rhs: QRCodeImageError) -> Bool { lhs.code == rhs.code }

    /// Hashes ``code`` only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
