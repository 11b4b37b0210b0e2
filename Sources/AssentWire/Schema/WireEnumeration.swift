/// A string-backed value (``ActionState``, ``SignatureScheme``, ``VerificationMethod``) a request field reads from its
/// spelling.
package protocol WireEnumeration: RawRepresentable, WireValue where RawValue == String {
    /// The spellings a request may send; nil when any is kept as sent.
    static var wireSpellings: [String]? { get }
}

extension WireEnumeration where Self: CaseIterable {
    package static var wireSpellings: [String]? { allCases.map(\.rawValue) }
}

extension WireEnumeration {
    /// What a request field holding `Self` is: its named or listed spellings, or when any is kept (an open set such as
    /// ``VerificationMethod``) a string of at most `maxLength` bytes.
    static func wireType(maxLength: Int) -> WireType {
        wireSpellings == nil ? .string(maxLength: maxLength, minLength: 1) : wireType
    }
}
