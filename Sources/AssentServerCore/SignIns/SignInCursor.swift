import AssentCrypto

/// Where a page of the history ended: the last row's time and number (the history is ordered newest first by both).
/// Clients see it as opaque text (``text``); a cursor that does not parse is refused, never guessed at.
package struct SignInCursor: Sendable, Hashable {
    /// The row's time, milliseconds.
    package var at: Int64
    /// The row's number.
    package var id: Int64

    /// The position of `signIn`.
    package init(_ signIn: SignIn) {
        at = signIn.at
        id = signIn.id
    }

    /// The position (`at`, `id`).
    package init(at: Int64, id: Int64) {
        self.at = at
        self.id = id
    }

    /// The cursor as clients see it: base64url of `s1.<at>.<id>`.
    package var text: String { Base64.encodeURL(Array("s1.\(at).\(id)".utf8)) }

    /// The cursor `text` stands for, or nil when it is not one ``text`` wrote.
    package init?(text: String) {
        guard text.utf8.count <= 64, let bytes = Base64.decodeURL(text) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "s1", let at = Int64(parts[1]), let id = Int64(parts[2]), id >= 0
        else { return nil }
        self.init(at: at, id: id)
    }
}
