/// The rule for action codes, the same in a path (`/v1/users/{userId}/actions/{action}`), a QR start over HTTP and
/// over the WebSocket: 1 to 100 characters of ASCII letters, digits and `_ - . :`.
package enum ActionCode {
    /// The longest action code, in bytes.
    package static let maxLength = 100

    /// Whether `code` holds only ASCII letters, digits and `_ - . :`.
    package static func isValid(_ code: String) -> Bool {
        code.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_-.:".unicodeScalars.contains($0)
        }
    }
}
