extension String {
    /// The string with leading zeros up to `width` characters: digits of a fixed width, such as a push challenge's
    /// three-digit verification code or the two hex digits of a byte.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
